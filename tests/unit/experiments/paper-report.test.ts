import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bufferCommands, DEMO_PRESETS, PRESETS, regimeRows, ROWS, savedPolicyRows, selectRows, settingsChanges, setupNeeds, trainArgs, withDemonstrationsPerTask } from '../../../experiments/paper-plan.ts';
import { baselineClaims, claims, curves, demoClaims, markdown, summarise, svg, type PaperReport, type PaperRow } from '../../../experiments/paper-report.ts';
import type { TrainResult } from '../../../src/train/trainer.ts';

/** A finished run with two held-out evaluations on the way and a final one. */
function run(mode: TrainResult['mode'], success: number, real: number, synthetic: number, seed: number): TrainResult {
  const point = (i: number, s: number) => ({
    iteration: i, phase: synthetic > 0 && i < 3 ? ('dream' as const) : ('real' as const), realTransitions: (real * i) / 4, syntheticTransitions: (synthetic * i) / 4,
    episodes: 64, samplesPerIteration: 500, successRate: s, meanScore: 50, meanReturn: 0.5, entropy: 1, approxKl: 0, clipFraction: 0, policyLoss: 0, valueLoss: 0,
    referenceKl: 0, gradNorm: 1, learningRate: 1e-3, samplesPerSecond: 100, wallSeconds: i,
    ...(i % 2 === 0 ? { eval: { split: 'test', episodes: 50, successRate: success / 2, meanScore: 40, actionsDigest: 'x' } } : {}),
  });
  return {
    env: 'shop', mode, algo: 'grpo', backend: 'wasm', seed, realTransitions: real, syntheticTransitions: synthetic, wallSeconds: 30, iterations: 4, stopped: false,
    eval: { split: 'test', episodes: 200, successRate: success, meanScore: 100 * success, actionsDigest: 'y' } as TrainResult['eval'],
    history: [1, 2, 3, 4].map((i) => point(i, 0.3)),
  } as TrainResult;
}

/** Rows that use no transition: the untrained policy and the offline baselines. */
const STILL = new Set(['untrained', 'bc', 'dpo']);

function report(success: Record<string, number[]>): PaperReport {
  const rows: PaperRow[] = ROWS.map((r) => ({
    id: r.id, label: r.label, mode: r.mode, algo: r.algo, commands: ['npm run cli -- train …'],
    runs: (success[r.id] ?? [0.1, 0.1]).map((s, i) =>
      STILL.has(r.id) ? { ...run(r.mode, s, 0, 0, i + 1), history: [] } : run(r.mode, s, r.mode === 'dream' ? 0 : r.mode === 's2r' ? 1000 : 10_000, r.mode === 'real' ? 0 : 10_000, i + 1)),
  }));
  return { kind: 'dreamgym-paper-experiment', version: 1, env: 'shop', preset: 'quick', settings: PRESETS.shop!.quick, seeds: [1, 2], createdAt: '2026-11-21T00:00:00Z', setup: ['buffer seed …'], wallSeconds: 600, jobs: 2, rows };
}

describe('the paper report', () => {
  it('summarises each row as mean ± sample std over seeds', () => {
    const s = summarise(report({ 'real-grpo': [0.3, 0.5] }).rows.find((r) => r.id === 'real-grpo') as PaperRow);
    expect(s.success.mean).toBeCloseTo(40);
    expect(s.success.std).toBeCloseTo(Math.sqrt(200));
    expect(s.perSeed).toEqual([30, 50]);
    expect(s.realTransitions).toBe(10_000);
  });

  it('checks each claim against the table: holds when it does, says why when it does not', () => {
    const good = claims(report({ 'real-ppo': [0.3, 0.3], 's2r-ppo': [0.4, 0.4], 'real-grpo': [0.3, 0.3], 's2r-grpo': [0.2, 0.2], 'dream-grpo': [0.5, 0.5], 'dream-grpo-no-curriculum': [0.2, 0.2] }).rows.map(summarise));
    expect(good[0]).toMatch(/s2r PPO ≥ real PPO with ≤ 10% of its real transitions: holds/);
    expect(good[0]).toMatch(/10\.0% of real mode's 10,000/);
    expect(good[1]).toMatch(/s2r GRPO .*: does not hold/);
    expect(good[1]).toMatch(/by seed: /);
    expect(good[2]).toMatch(/with the curriculum > without it: holds/);
    const bad = claims(report({ 'dream-grpo': [0.2, 0.4], 'dream-grpo-no-curriculum': [0.3, 0.3] }).rows.map(summarise));
    expect(bad[2]).toMatch(/does not hold/);
    expect(bad[2]).toMatch(/within the spread over seeds/);
  });

  it('writes the table, the claims, the setup and the commands, and a curve per row', () => {
    const r = report({});
    const md = markdown(r, 'shop-paper.svg');
    for (const row of ROWS) expect(md).toContain(`| ${row.label} |`);
    expect(md).toContain('## The claims');
    expect(md).toContain('![held-out success against transitions](shop-paper.svg)');
    const lines = curves(r);
    expect(lines).toHaveLength(ROWS.length);
    // Two evaluations on the way and the final one, averaged over the seeds.
    expect(lines[ROWS.findIndex((row) => row.id === 'real-ppo')]?.points).toEqual([[5000, 5], [10_000, 5], [10_000, 10]]);
    // A row without transitions has its final evaluation alone, at 0: drawn as a level across the chart.
    expect(lines[ROWS.findIndex((row) => row.id === 'bc')]?.points).toEqual([[0, 10]]);
    const picture = svg(r);
    expect(picture.startsWith('<svg')).toBe(true);
    expect(picture.match(/<polyline/g)).toHaveLength(ROWS.length - STILL.size);
    expect(picture.match(/<line [^>]*stroke-dasharray="2 3"/g)).toHaveLength(2 * STILL.size);
    expect(svg({ ...r, rows: [{ ...(r.rows[0] as PaperRow), label: '<b>&' }] })).toContain('&lt;b>&amp;');
  });

  it('keeps the recorded rows\' ids and adds the baselines of issue 24', () => {
    const ids = ROWS.map((r) => r.id);
    // Renaming a row would orphan the runs already recorded under its id.
    for (const id of ['real-ppo', 'real-grpo', 'dream-ppo', 'dream-grpo', 's2r-ppo', 's2r-grpo', 'dream-grpo-no-retrieval', 'dream-grpo-no-curriculum', 'dream-grpo-no-reasoning']) expect(ids).toContain(id);
    for (const id of ['untrained', 'bc', 'dpo', 'real-grpo-5k', 'real-ppo-5k', 'dream-grpo-knn']) expect(ids).toContain(id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('adds a gain over the untrained policy and checks the baselines when the report has their rows', () => {
    const r = report({ untrained: [0.05, 0.05], bc: [0.2, 0.2], dpo: [0.1, 0.1], 'dream-grpo': [0.3, 0.3], 's2r-grpo': [0.4, 0.4], 'real-grpo-5k': [0.15, 0.15], 'dream-grpo-knn': [0.02, 0.02] });
    const md = markdown(r, 'x.svg');
    expect(md).toContain('| success % | vs untrained (points) |');
    expect(md).toMatch(/\| BC \(offline\) \| 20\.0 ± 0\.0 \| \+15\.0 \|/);
    expect(md).toMatch(/\| untrained policy \| 5\.0 ± 0\.0 \| \+0\.0 \|/);
    const lines = baselineClaims(new Map(r.rows.map(summarise).map((s) => [s.id, s])));
    expect(lines[0]).toMatch(/BC \(offline\) 20\.0 ± 0\.0%, DPO \(offline\) 10\.0 ± 0\.0% \(the untrained policy: 5\.0 ± 0\.0%\)\. Dream GRPO reaches 30\.0 ± 0\.0% \(above the best of them\)/);
    expect(lines.find((l) => l.includes('GRPO on s2r'))).toMatch(/s2r 40\.0 ± 0\.0% .*real from scratch 15\.0 ± 0\.0% .*worth \+25\.0 points/);
    expect(lines.at(-1)).toMatch(/kNN experience model .* 2\.0 ± 0\.0%; with the neural model 30\.0 ± 0\.0%/);
    // A report from before these rows keeps its table and claims as they were.
    const old: PaperReport = { ...r, rows: r.rows.filter((row) => !['untrained', 'bc', 'dpo', 'real-grpo-5k', 'real-ppo-5k', 'dream-grpo-knn'].includes(row.id)) };
    expect(markdown(old, 'x.svg')).not.toContain('vs untrained');
    expect(claims(old.rows.map(summarise))).toHaveLength(5);
    // The standard regime's claims say what the dream adds to cloning where both rows ran (home's BC beats real RL).
    const withFromBc = claims(report({ untrained: [0.35, 0.35], bc: [0.65, 0.71], 'dream-grpo-from-bc': [0.72, 0.66] }).rows.map(summarise));
    expect(withFromBc).toContainEqual(expect.stringMatching(/What the dream adds to cloning:\*\* dream GRPO from the BC policy \(KL to it\) 69\.0 ± 4\.2% against BC \(offline\) 68\.0 ± 4\.2% \(\+1\.0 points, within the seed spread/));
    const withoutFromBc = report({ untrained: [0.35, 0.35], bc: [0.65, 0.71] }).rows.filter((row) => row.id !== 'dream-grpo-from-bc');
    expect(claims(withoutFromBc.map(summarise)).join('\n')).not.toContain('adds to cloning');
  });

  it('plans each row as a train command the CLI accepts', () => {
    const files = { buffer: 'b.jsonl', model: 'm.dgx', history: 'h.json' };
    const preset = PRESETS.shop!.quick;
    const real = trainArgs('shop', preset, ROWS[0]!, 1, files);
    expect(real).toEqual(expect.arrayContaining(['--mode', 'real', '--real-budget', '12000', '--history', 'h.json', '--json']));
    expect(real).not.toContain('--experience');
    const s2r = trainArgs('shop', preset, ROWS.find((r) => r.id === 's2r-grpo')!, 2, files);
    expect(s2r).toEqual(expect.arrayContaining(['--synthetic-budget', '12000', '--real-budget', '1200', '--experience', 'neural', '--model', 'm.dgx', '--buffer', 'b.jsonl']));
    expect(preset.s2rRealBudget / preset.realBudget).toBeLessThanOrEqual(0.1);
    expect(PRESETS.shop!.full.s2rRealBudget / PRESETS.shop!.full.realBudget).toBeLessThanOrEqual(0.1);
    expect(trainArgs('home', PRESETS.home!.quick, ROWS.find((r) => r.id === 'dream-grpo-no-retrieval')!, 1, files)).toEqual(expect.arrayContaining(['--k', '0', '--train-max-steps', '20']));
    const row = (id: string) => ROWS.find((r) => r.id === id)!;
    expect(trainArgs('shop', preset, row('untrained'), 1, files)).toEqual(expect.arrayContaining(['--mode', 'real', '--iterations', '0', '--seed', '1']));
    expect(trainArgs('shop', preset, row('real-grpo-5k'), 1, files)).toEqual(expect.arrayContaining(['--mode', 'real', '--algo', 'grpo', '--real-budget', '1200']));
    expect(trainArgs('shop', preset, row('real-ppo-5k'), 1, files)).toEqual(expect.arrayContaining(['--algo', 'ppo', '--real-budget', String(preset.s2rRealBudget)]));
    const bc = trainArgs('home', PRESETS.home!.quick, row('bc'), 3, files);
    expect(bc).toEqual(['train', '--env', 'home', '--mode', 'bc', '--seed', '3', '--buffer', 'b.jsonl', '--final-eval-episodes', '100', '--history', 'h.json', '--json']);
    expect(trainArgs('shop', preset, row('dpo'), 1, files)).toEqual(expect.arrayContaining(['--mode', 'dpo', '--buffer', 'b.jsonl']));
    const knn = trainArgs('shop', preset, row('dream-grpo-knn'), 1, files);
    expect(knn).toEqual(expect.arrayContaining(['--mode', 'dream', '--experience', 'knn', '--buffer', 'b.jsonl']));
    expect(knn).not.toContain('--model');
  });

  it('runs the rows --rows names, and makes the buffer and the model only for runs that read them', () => {
    expect(selectRows(undefined)).toHaveLength(ROWS.length);
    // The table's order, whatever the order named.
    expect(selectRows('bc, real-ppo,untrained').map((r) => r.id)).toEqual(['untrained', 'real-ppo', 'bc']);
    expect(() => selectRows('real-ppo,dream')).toThrow(/unknown row "dream"; the rows are: untrained, real-ppo/);
    expect(() => selectRows(' , ')).toThrow(/--rows names no row/);
    expect(setupNeeds(selectRows('untrained,real-ppo,real-grpo-5k'))).toEqual({ buffer: false, model: false });
    expect(setupNeeds(selectRows('untrained,bc,dpo'))).toEqual({ buffer: true, model: false });
    expect(setupNeeds(selectRows('dream-grpo-knn'))).toEqual({ buffer: true, model: false });
    expect(setupNeeds(selectRows('real-ppo,s2r-grpo'))).toEqual({ buffer: true, model: true });
    expect(setupNeeds([])).toEqual({ buffer: false, model: false });
  });

  it('writes a partial table: the rows that ran, the claims they can check, and what is still to run', () => {
    const full = report({ untrained: [0.3, 0.3], 'real-ppo': [0.5, 0.5], 'real-grpo': [0.6, 0.6], bc: [0.4, 0.4] });
    const onlyReal = new Set(['untrained', 'real-ppo', 'real-grpo', 'bc']);
    const partial: PaperReport = {
      ...full,
      preset: 'full',
      rows: full.rows.filter((r) => onlyReal.has(r.id)).map((r) => (r.id === 'bc' ? { ...r, seeds: [1], runs: r.runs.slice(0, 1) } : r)),
      pending: ['bc (seed 2)', 'dream-ppo (seeds 1, 2)'],
      invocation: 'npm run experiment -- paper --env shop --seeds 2 --work results/paper/full/shop --out results/paper/full',
    };
    const md = markdown(partial, 'x.svg');
    expect(md).toContain('# shop: the DreamGym table (full preset)');
    expect(md).toContain('Made by `npm run experiment -- paper --env shop --seeds 2 --work results/paper/full/shop --out results/paper/full`');
    expect(md).toContain('**This table is partial.** Not run yet: bc (seed 2), dream-ppo (seeds 1, 2).');
    expect(md).toMatch(/\| BC \(offline\) \(1 of 2 seeds\) \| 40\.0 ± 0\.0 \| \+10\.0 \|/);
    expect(md).not.toContain('| dream PPO |');
    // No claim reads a row the table lacks; the run list names the seeds each row has.
    expect(claims(partial.rows.map(summarise))).toEqual([]);
    expect(md).toMatch(/- BC \(offline\): `npm run cli -- train …`\n/);
    expect(md).toMatch(/- real PPO: `npm run cli -- train …` \(and seed 2\)/);
  });

  it('plans the demonstrations regime: the app-like tasks in every command, demonstrations and exploration in one buffer, no ablation', () => {
    const preset = DEMO_PRESETS.web!.quick;
    const commands = bufferCommands('web', preset, '/w/web-buffer.jsonl');
    expect(commands.map((c) => c.join(' '))).toEqual([
      'buffer seed --env web --tasks @app --episodes 240 --mix oracle=1 --per-task 20 --seed 1 --out /w/web-buffer-demos.jsonl',
      'buffer seed --env web --tasks @app --episodes 240 --mix random=1 --seed 2 --out /w/web-buffer-exploration.jsonl',
      'buffer import /w/web-buffer-demos.jsonl --out /w/web-buffer.jsonl',
      'buffer import /w/web-buffer-exploration.jsonl --out /w/web-buffer.jsonl',
    ]);
    // The standard regime's buffer is one seeding, as before.
    expect(bufferCommands('shop', PRESETS.shop!.full, '/w/b.jsonl')).toEqual([['buffer', 'seed', '--env', 'shop', '--episodes', '700', '--mix', 'oracle=0.4,noisy=0.3,random=0.3', '--seed', '1', '--out', '/w/b.jsonl']]);
    const rows = regimeRows('demos');
    expect(rows.map((r) => r.id)).toEqual(['untrained', 'real-ppo', 'real-grpo', 'real-ppo-5k', 'real-grpo-5k', 'bc', 'dpo', 'dream-ppo', 'dream-grpo', 's2r-ppo', 's2r-grpo', 'dream-grpo-from-bc', 'real-grpo-5k-from-bc', 's2r-grpo-from-bc']);
    expect(() => selectRows('dream-grpo-knn', rows)).toThrow(/unknown row "dream-grpo-knn"/);
    const files = { buffer: 'b.jsonl', model: 'm.dgx', history: 'h.json' };
    for (const row of rows) expect(trainArgs('web', preset, row, 1, files).slice(0, 5)).toEqual(['train', '--env', 'web', '--tasks', '@app']);
    const s2r = trainArgs('web', preset, rows.find((r) => r.id === 's2r-grpo')!, 1, files);
    expect(s2r.join(' ')).toContain('--real-budget 1000');
    expect(trainArgs('web', preset, rows.find((r) => r.id === 'real-grpo-5k')!, 1, files).join(' ')).toContain('--real-budget 1000');
    // The BC run saves its policy beside its history, and the dream row of the same seed starts from it.
    expect([...savedPolicyRows(rows)]).toEqual(['bc']);
    // The standard regime asks what the dream adds to cloning too, so its BC runs save their policies.
    expect([...savedPolicyRows(regimeRows('standard'))]).toEqual(['bc']);
    expect(regimeRows('standard').map((r) => r.id)).not.toContain('s2r-grpo-from-bc');
    const runs = (id: string, seed: number) => ({ ...files, history: `/w/runs/${id}-s${seed}.json`, savePolicy: id === 'bc' });
    expect(trainArgs('web', preset, rows.find((r) => r.id === 'bc')!, 2, runs('bc', 2)).join(' ')).toContain('--history /w/runs/bc-s2.json --out /w/runs/bc-s2.dgp');
    expect(trainArgs('web', preset, rows.find((r) => r.id === 'dream-grpo-from-bc')!, 2, runs('dream-grpo-from-bc', 2)).join(' ')).toMatch(/--mode dream --algo grpo --seed 2 --init \/w\/runs\/bc-s2\.dgp .*--set klCoef=0\.2/);
    // A team with demonstrations and 1,000 real transitions: s2r and real mode both start from BC, on the same real budget.
    expect(trainArgs('web', preset, rows.find((r) => r.id === 'real-grpo-5k-from-bc')!, 3, runs('real-grpo-5k-from-bc', 3)).join(' ')).toMatch(/--mode real --algo grpo --seed 3 --init \/w\/runs\/bc-s3\.dgp --real-budget 1000 .*--set klCoef=0\.2/);
    expect(trainArgs('web', preset, rows.find((r) => r.id === 's2r-grpo-from-bc')!, 3, runs('s2r-grpo-from-bc', 3)).join(' ')).toMatch(/--mode s2r --algo grpo --seed 3 --init \/w\/runs\/bc-s3\.dgp --synthetic-budget 8000 .*--real-budget 1000 .*--set klCoef=0\.2/);
  });

  it('gives the demonstrations regime fewer demonstrations of each task, and refuses a count it cannot take', () => {
    const preset = DEMO_PRESETS.web!.quick;
    const few = withDemonstrationsPerTask(preset, 5);
    expect(bufferCommands('web', few, '/w/web-buffer.jsonl')[0]!.join(' ')).toBe('buffer seed --env web --tasks @app --episodes 60 --mix oracle=1 --per-task 5 --seed 1 --out /w/web-buffer-demos.jsonl');
    // The exploration and the budgets are the regime's; a folder made with 20 refuses the count by name.
    expect(bufferCommands('web', few, '/w/web-buffer.jsonl')[1]).toEqual(bufferCommands('web', preset, '/w/web-buffer.jsonl')[1]);
    expect(settingsChanges(preset, few)).toEqual(['bufferEpisodes: 240 then, 60 now', 'perTask: 20 then, 5 now']);
    expect(withDemonstrationsPerTask(preset, 20)).toEqual(preset);
    for (const bad of [0, 21, 2.5, Number.NaN]) expect(() => withDemonstrationsPerTask(preset, bad)).toThrow(/--per-task must be a whole number from 1 to 20/);
    expect(() => withDemonstrationsPerTask(PRESETS.shop!.quick, 5)).toThrow(/--per-task is for the demos regime/);
  });

  it('checks the demonstrations regime\'s bars: the best dream gain against the best offline one, s2r against real on the same transitions', () => {
    const by = (success: Record<string, number[]>) => new Map(report(success).rows.map(summarise).map((r) => [r.id, r]));
    const good = demoClaims(by({ untrained: [0.4, 0.4], bc: [0.5, 0.5], dpo: [0.45, 0.45], 'dream-ppo': [0.55, 0.55], 'dream-grpo': [0.6, 0.6], 's2r-ppo': [0.7, 0.7], 'real-ppo-5k': [0.5, 0.52], 's2r-grpo': [0.5, 0.6], 'real-grpo-5k': [0.5, 0.5] }));
    expect(good[0]).toMatch(/best offline row's: holds\.\*\* dream GRPO \+20\.0 points over the untrained policy, BC \(offline\) \+10\.0 \(2\.00 ×\)/);
    expect(good[1]).toMatch(/s2r PPO above real PPO on the same 1,000 real transitions, beyond the seed spread: holds/);
    expect(good[2]).toMatch(/s2r GRPO .*: does not hold/);
    const bad = demoClaims(by({ untrained: [0.4, 0.4], bc: [0.6, 0.6], dpo: [0.4, 0.4], 'dream-ppo': [0.5, 0.5], 'dream-grpo': [0.45, 0.45] }));
    expect(bad[0]).toMatch(/does not hold\.\*\* dream PPO \+10\.0 points .* BC \(offline\) \+20\.0 \(0\.50 ×\)/);
    const losing = demoClaims(by({ untrained: [0.4, 0.4], bc: [0.3, 0.3], dpo: [0.35, 0.35], 'dream-ppo': [0.45, 0.45] }));
    expect(losing[0]).toMatch(/holds\.\*\* dream PPO \+5\.0 points .* DPO \(offline\) −5\.0: the offline rows gain nothing, so any gain clears the bar/);
    const fromBc = demoClaims(by({ untrained: [0.4, 0.4], bc: [0.9, 0.88], 'dream-grpo-from-bc': [0.95, 0.96] }));
    // The dream from BC is a dream row: the best one's gain is taken over it too.
    expect(fromBc[0]).toMatch(/best offline row's: does not hold\.\*\* dream GRPO from the BC policy \(KL to it\) \+55\.5 points over the untrained policy, BC \(offline\) \+49\.0 \(1\.13 ×\)/);
    expect(fromBc.at(-1)).toMatch(/What the dream adds to cloning:\*\* dream GRPO from the BC policy \(KL to it\) 95\.5 ± 0\.7% against BC \(offline\) 89\.0 ± 1\.4% \(\+6\.5 points, beyond the seed spread/);
    const negative = demoClaims(by({ untrained: [0.4, 0.4], bc: [0.6, 0.6], 'dream-grpo': [0.39, 0.39] }));
    expect(negative[0]).toContain('(−0.05 ×)');
    const s2rFromBc = demoClaims(by({ untrained: [0.4, 0.4], 'real-grpo-5k-from-bc': [0.86, 0.88], 's2r-grpo-from-bc': [0.92, 0.93] }));
    expect(s2rFromBc).toContainEqual(expect.stringMatching(/s2r GRPO from BC above real GRPO from BC on the same 1,000 real transitions, beyond the seed spread: holds\.\*\* 92\.5 ± 0\.7% against 87\.0 ± 1\.4%/));
    // Without the untrained row there is no gain to compare.
    expect(demoClaims(new Map())).toEqual([]);
  });
});

describe('settingsChanges', () => {
  const shop = PRESETS['shop']?.full;
  if (!shop) throw new Error('no shop preset');

  it('finds no change between a preset and itself', () => {
    expect(settingsChanges(shop, { ...shop })).toEqual([]);
  });

  it('names each changed, added or removed setting with its value then and now', () => {
    expect(settingsChanges(shop, { ...shop, bufferMix: 'shopper=1', trainMaxSteps: 20 })).toEqual(['bufferMix: "oracle=0.4,noisy=0.3,random=0.3" then, "shopper=1" now', 'trainMaxSteps: unset then, 20 now']);
    expect(settingsChanges({ ...shop, exploration: { episodes: 1, mix: 'random=1' } }, shop)).toEqual(['exploration: {"episodes":1,"mix":"random=1"} then, unset now']);
  });
});

describe('npm run experiment -- paper on a work folder made with other settings', () => {
  it('refuses before any setup or run, naming what changed', () => {
    const work = mkdtempSync(path.join(tmpdir(), 'dreamgym-settings-'));
    try {
      const quick = PRESETS['shop']?.quick;
      writeFileSync(path.join(work, 'regime.json'), JSON.stringify({ regime: 'standard', env: 'shop', preset: 'quick', settings: { ...quick, bufferEpisodes: 1 } }));
      const result = spawnSync(process.execPath, ['--import', 'tsx', 'experiments/run.ts', 'paper', '--env', 'shop', '--quick', '--seeds', '1', '--work', work, '--out', work], { cwd: path.resolve(import.meta.dirname, '../../..'), encoding: 'utf8' });
      expect(result.status).toBe(2);
      expect(result.stderr).toMatch(/holds runs made with other shop quick settings \(bufferEpisodes: 1 then, 300 now\); give another --work/);
      expect(readdirSync(work).sort()).toEqual(['regime.json', 'runs']);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });

  it('reports the commands as they ran: the BC row names the policy file the dream from BC starts from', () => {
    const work = mkdtempSync(path.join(tmpdir(), 'dreamgym-report-'));
    const repo = path.resolve(import.meta.dirname, '../../..');
    try {
      // Home's committed runs of both rows, seed 1: nothing is left to run, so the experiment only writes its report.
      mkdirSync(path.join(work, 'runs'));
      copyFileSync(path.join(repo, 'results/paper/full/home/regime.json'), path.join(work, 'regime.json'));
      for (const id of ['bc', 'dream-grpo-from-bc']) copyFileSync(path.join(repo, `results/paper/full/home/runs/${id}-s1.json`), path.join(work, 'runs', `${id}-s1.json`));
      const result = spawnSync(process.execPath, ['--import', 'tsx', 'experiments/run.ts', 'paper', '--env', 'home', '--seeds', '1', '--rows', 'bc,dream-grpo-from-bc', '--work', work, '--out', work], { cwd: repo, encoding: 'utf8' });
      expect(result.status, result.stderr).toBe(0);
      const md = readFileSync(path.join(work, 'home-paper.md'), 'utf8');
      expect(md).toContain("--history '$WORK/runs/bc-s1.json' --out '$WORK/runs/bc-s1.dgp'");
      expect(md).toContain("--init '$WORK/runs/bc-s1.dgp'");
      expect(md).toContain("--set klCoef=0.05 --history '$WORK/runs/dream-grpo-from-bc-s1.json'");
      expect(md).toMatch(/What the dream adds to cloning:\*\* dream GRPO from the BC policy \(KL to it\) 76\.4 ± 0\.0% against BC \(offline\) 64\.8 ± 0\.0%/);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });

  it('refuses a demonstrations count outside the regime before it makes the work folder', () => {
    const work = path.join(mkdtempSync(path.join(tmpdir(), 'dreamgym-per-task-')), 'w');
    try {
      const run = (...args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', 'experiments/run.ts', 'paper', '--quick', '--seeds', '1', '--work', work, '--out', work, ...args], { cwd: path.resolve(import.meta.dirname, '../../..'), encoding: 'utf8' });
      const tooMany = run('--env', 'web', '--regime', 'demos', '--per-task', '30');
      expect(tooMany.status).toBe(2);
      expect(tooMany.stderr).toMatch(/^--per-task must be a whole number from 1 to 20 \(the regime's demonstrations of each task\), got 30\n/);
      const standard = run('--env', 'shop', '--per-task', '5');
      expect(standard.status).toBe(2);
      expect(standard.stderr).toMatch(/^--per-task is for the demos regime/);
      expect(existsSync(work)).toBe(false);
    } finally {
      rmSync(path.dirname(work), { recursive: true, force: true });
    }
  });
});
