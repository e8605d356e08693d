/**
 * Turns the runs of a paper experiment into its results: the JSON report (every run's full
 * TrainResult, curves included), the Markdown table with the claims checked against it, and an SVG
 * of the learning curves. Pure functions of the runs, so a report can be rebuilt without rerunning.
 */
import type { TrainResult } from '../src/train/trainer.ts';
import { regimePresets, type Preset, type PresetName, type RegimeName, type RowSpec } from './paper-plan.ts';

export interface PaperRow {
  id: string;
  label: string;
  mode: RowSpec['mode'];
  algo: RowSpec['algo'];
  /** The seeds of `runs`, where the row has not run all of the report's (older reports: all of them). */
  seeds?: number[];
  /** One `train` command line per seed, as run. */
  commands: string[];
  runs: TrainResult[];
}

export interface PaperReport {
  kind: 'dreamgym-paper-experiment';
  version: 1;
  env: string;
  /** Absent: the standard regime (reports made before regimes). */
  regime?: RegimeName;
  preset: PresetName;
  settings: Preset;
  seeds: number[];
  createdAt: string;
  /** How the offline buffer and the experience model were made. */
  setup: string[];
  wallSeconds: number;
  jobs: number;
  rows: PaperRow[];
  /** Rows (and seeds) with no finished run yet: the table is partial until the runner has done them. */
  pending?: string[];
  /** The command that made the report, as typed (older reports: rebuilt from env, seeds and preset). */
  invocation?: string;
}

export interface RowSummary {
  id: string;
  label: string;
  success: { mean: number; std: number };
  /** Held-out success % of each seed, in seed order. */
  perSeed: number[];
  score: { mean: number; std: number };
  realTransitions: number;
  syntheticTransitions: number;
  wallSeconds: number;
  backend: string;
  experience: string;
  /** Dream rows: training success in the synthetic world over the last quarter of iterations (the policy's view). */
  dreamSuccess: number | null;
  /** Rows with the curriculum: how it filled an iteration's task slots, on average. */
  curriculum: { byVariance: number; explored: number; generated: number; meanVariance: number; iterations: number } | null;
}

export function meanStd(xs: readonly number[]): { mean: number; std: number } {
  const n = xs.length;
  if (n === 0) return { mean: NaN, std: NaN };
  const mean = xs.reduce((a, x) => a + x, 0) / n;
  // Sample standard deviation over seeds (0 for one seed).
  const std = n > 1 ? Math.sqrt(xs.reduce((a, x) => a + (x - mean) ** 2, 0) / (n - 1)) : 0;
  return { mean, std };
}

const avg = (xs: readonly number[]): number => (xs.length === 0 ? NaN : xs.reduce((a, x) => a + x, 0) / xs.length);

function curriculumUse(runs: readonly TrainResult[]): RowSummary['curriculum'] {
  const its = runs.flatMap((r) => r.history.flatMap((m) => (m.curriculum ? [m.curriculum] : [])));
  if (its.length === 0) return null;
  const mean = (f: (c: (typeof its)[number]) => number): number => avg(its.map(f));
  return {
    byVariance: mean((c) => c.byVariance),
    explored: mean((c) => c.explored),
    generated: mean((c) => c.generated),
    meanVariance: mean((c) => c.meanVariance),
    iterations: its.length / runs.length,
  };
}

export function summarise(row: PaperRow): RowSummary {
  const runs = row.runs;
  const dreamTail = runs.flatMap((r) => {
    const dream = r.history.filter((m) => m.phase === 'dream');
    return dream.slice(Math.floor(dream.length * 0.75)).map((m) => m.successRate);
  });
  return {
    id: row.id,
    label: row.label,
    success: meanStd(runs.map((r) => 100 * (r.eval?.successRate ?? 0))),
    perSeed: runs.map((r) => 100 * (r.eval?.successRate ?? 0)),
    score: meanStd(runs.map((r) => r.eval?.meanScore ?? 0)),
    realTransitions: avg(runs.map((r) => r.realTransitions)),
    syntheticTransitions: avg(runs.map((r) => r.syntheticTransitions)),
    wallSeconds: avg(runs.map((r) => r.wallSeconds)),
    backend: [...new Set(runs.map((r) => r.backend))].join(', '),
    experience: [...new Set(runs.map((r) => (r.dream ? `${r.dream.experience} k=${r.dream.k}${r.dream.reasoning ? '' : ', no reasoning'}` : '—')))].join(', '),
    dreamSuccess: dreamTail.length > 0 ? 100 * avg(dreamTail) : null,
    curriculum: curriculumUse(runs),
  };
}

const pm = (x: { mean: number; std: number }): string => `${x.mean.toFixed(1)} ± ${x.std.toFixed(1)}`;
/** Points with their sign: `+4.7`, `−10.0`. */
const signed = (x: number): string => `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(1)}`;
const int = (x: number): string => Math.round(x).toLocaleString('en-US');

/** Each claim of the paper, checked against the table, with what the numbers say when it fails. */
export function claims(summaries: readonly RowSummary[]): string[] {
  const by = new Map(summaries.map((s) => [s.id, s]));
  const lines: string[] = [];
  const reals = ['real-ppo', 'real-grpo'].flatMap((id) => by.get(id) ?? []);
  const realBest = Math.max(...reals.map((r) => r.success.mean));
  if (reals.length > 0 && realBest < 10) {
    lines.push(`- **At this budget no method has learned the task yet:** real mode itself reaches ${realBest.toFixed(1)}% at best, so every row below compares policies that are still close to untrained, and no claim can be judged from them; run a larger budget (the full preset).`);
  }
  // A claim is checked only when the table has every row it reads (a partial table checks what it can).
  for (const algo of ['PPO', 'GRPO']) {
    const real = by.get(`real-${algo.toLowerCase()}`);
    const s2r = by.get(`s2r-${algo.toLowerCase()}`);
    const dream = by.get(`dream-${algo.toLowerCase()}`);
    if (!real || !s2r || !dream) continue;
    const share = real.realTransitions > 0 ? (100 * s2r.realTransitions) / real.realTransitions : NaN;
    const holds = s2r.success.mean >= real.success.mean && share <= 10;
    let line = `- **s2r ${algo} ≥ real ${algo} with ≤ 10% of its real transitions: ${holds ? 'holds' : 'does not hold'}.** s2r ${pm(s2r.success)}% with ${int(s2r.realTransitions)} real transitions (${share.toFixed(1)}% of real mode's ${int(real.realTransitions)}); real ${pm(real.success)}%.`;
    if (!holds) {
      line += ` Dream ${algo} alone reaches ${pm(dream.success)}% on the real test split (by seed: ${dream.perSeed.map((x) => x.toFixed(1)).join(', ')}) while its training episodes succeed ${dream.dreamSuccess?.toFixed(1) ?? '?'}% of the time inside the experience model:`;
      line += (dream.dreamSuccess ?? 0) > dream.success.mean + 10
        ? ' the synthetic world is more generous than the real one (the sim-to-real gap), so the dream phase teaches habits the real phase must unlearn, and the short real phase is too small to close it.'
        : ' the policy did not learn much in the dream either, so the real phase starts from little.';
    }
    lines.push(line);
  }
  const withC = by.get('dream-grpo');
  const withoutC = by.get('dream-grpo-no-curriculum');
  if (withC && withoutC) {
    const diff = withC.success.mean - withoutC.success.mean;
    const noise = Math.max(withC.success.std, withoutC.success.std);
    let line = `- **dream GRPO with the curriculum > without it: ${diff > 0 ? 'holds' : 'does not hold'}.** With ${pm(withC.success)}%, without ${pm(withoutC.success)}% (difference ${diff.toFixed(1)} points, seed std up to ${noise.toFixed(1)}).`;
    if (Math.abs(diff) <= noise) line += ' The difference is within the spread over seeds: these runs cannot tell the two apart.';
    const use = withC.curriculum;
    if (use) {
      line += ` Per iteration the curriculum gave on average ${use.byVariance.toFixed(1)} task slots to the tasks that varied most (mean variance ${use.meanVariance.toFixed(3)}), ${use.explored.toFixed(1)} to unattempted ones and ${use.generated.toFixed(1)} to generated ones (the rest to tasks drawn at random), over ${use.iterations.toFixed(0)} iterations a run.`;
      if (diff <= 0) line += ' Its variance is measured inside the experience model, so it steers toward the tasks the model finds uncertain, which helps the real policy only as far as the model is faithful on them.';
    }
    lines.push(line);
  }
  lines.push(...baselineClaims(by), ...cloningClaim(by));
  const r = by.get('dream-grpo-no-retrieval');
  if (r && withC) lines.push(`- **Retrieval:** without it dream GRPO reaches ${pm(r.success)}% (with: ${pm(withC.success)}%). The neural experience model builds its candidate next lines from the retrieved examples, so without them it can only keep the current page.`);
  const n = by.get('dream-grpo-no-reasoning');
  if (n && withC) lines.push(`- **Reasoning:** without it dream GRPO reaches ${pm(n.success)}% (with: ${pm(withC.success)}%). The neural model chooses its reasoning among the sentences of the examples' teacher annotations before it predicts, and its reward and episode-end heads read what it chose; without reasoning they read nothing of it. With an LLM experience model the row removes the examples' reasoning from the prompt.`);
  return lines;
}

/**
 * Issue 27's bars for the demonstrations-only regime: the best dream row's gain over the untrained
 * policy ≥ 1.3 × the best offline row's, and s2r above real mode on the same real transitions by
 * more than the seed spread.
 */
export function demoClaims(by: ReadonlyMap<string, RowSummary>): string[] {
  const untrained = by.get('untrained');
  if (!untrained) return [];
  const gain = (r: RowSummary): number => r.success.mean - untrained.success.mean;
  const lines: string[] = [];
  // The dream from the cloned policy is a dream row too: it uses the same demonstrations and no real step.
  const dreams = ['dream-ppo', 'dream-grpo', 'dream-grpo-from-bc'].flatMap((id) => by.get(id) ?? []);
  const offline = ['bc', 'dpo'].flatMap((id) => by.get(id) ?? []);
  if (dreams.length > 0 && offline.length > 0) {
    const dream = dreams.reduce((a, b) => (gain(b) > gain(a) ? b : a));
    const best = offline.reduce((a, b) => (gain(b) > gain(a) ? b : a));
    const holds = gain(best) > 0 ? gain(dream) >= 1.3 * gain(best) : gain(dream) > 0;
    const ratio = gain(best) > 0 ? ` (${(gain(dream) / gain(best)).toFixed(2).replace('-', '−')} ×)` : ': the offline rows gain nothing, so any gain clears the bar';
    lines.push(`- **The best dream row's gain ≥ 1.3 × the best offline row's: ${holds ? 'holds' : 'does not hold'}.** ${dream.label} ${signed(gain(dream))} points over the untrained policy, ${best.label} ${signed(gain(best))}${ratio}.`);
  }
  // Each s2r row against real mode on the same real budget from the same start (scratch, or the BC policy).
  const pairs = [['real-ppo-5k', 's2r-ppo', 'PPO'], ['real-grpo-5k', 's2r-grpo', 'GRPO'], ['real-grpo-5k-from-bc', 's2r-grpo-from-bc', 'GRPO from BC']] as const;
  for (const [real, s2r, name] of pairs) {
    const scratch = by.get(real);
    const sim = by.get(s2r);
    if (!scratch || !sim) continue;
    const margin = sim.success.mean - scratch.success.mean;
    const spread = Math.max(sim.success.std, scratch.success.std);
    lines.push(`- **s2r ${name} above real ${name} on the same ${int(sim.realTransitions)} real transitions, beyond the seed spread: ${margin > spread ? 'holds' : 'does not hold'}.** ${pm(sim.success)}% against ${pm(scratch.success)}% (${signed(margin)} points; seed std up to ${spread.toFixed(1)}${sim.perSeed.length < 2 ? ', one seed: no spread to judge by' : ''}).`);
  }
  lines.push(...cloningClaim(by));
  return lines;
}

/**
 * Not a bar of either issue: where cloning is strong (the web demonstrations, home's buffer),
 * whether the dream adds to the cloned policy it starts from.
 */
export function cloningClaim(by: ReadonlyMap<string, RowSummary>): string[] {
  const bc = by.get('bc');
  const fromBc = by.get('dream-grpo-from-bc');
  if (!bc || !fromBc) return [];
  const margin = fromBc.success.mean - bc.success.mean;
  const spread = Math.max(fromBc.success.std, bc.success.std);
  const verdict = Math.abs(margin) <= spread ? 'within the seed spread' : margin > 0 ? 'beyond the seed spread' : 'it loses, beyond the seed spread';
  return [`- **What the dream adds to cloning:** ${fromBc.label} ${pm(fromBc.success)}% against ${bc.label} ${pm(bc.success)}% (${signed(margin)} points, ${verdict}; seed std up to ${spread.toFixed(1)}).`];
}

/** Held-out success points over the untrained policy's, when the report has its row. */
function gainText(row: RowSummary, untrained: RowSummary | undefined): string {
  if (!untrained) return '';
  const gain = row.success.mean - untrained.success.mean;
  return ` ${signed(gain)} |`;
}

/**
 * The rows issue 24 added, each checked only where the report has it (reports made before keep
 * their claims): the offline baselines on the same buffer, real mode from scratch on s2r's real
 * budget, and the kNN floor.
 */
export function baselineClaims(by: ReadonlyMap<string, RowSummary>): string[] {
  const lines: string[] = [];
  const untrained = by.get('untrained');
  const dream = by.get('dream-grpo');
  const s2r = by.get('s2r-grpo');
  const offline = ['bc', 'dpo'].flatMap((id) => by.get(id) ?? []);
  if (offline.length > 0 && dream && s2r) {
    const best = Math.max(...offline.map((o) => o.success.mean));
    const beats = (x: RowSummary) => (x.success.mean > best ? 'above' : 'not above');
    lines.push(
      `- **The offline baselines, trained on the buffer the experience model learns from:** ${offline.map((o) => `${o.label} ${pm(o.success)}%`).join(', ')}` +
        `${untrained ? ` (the untrained policy: ${pm(untrained.success)}%)` : ''}. Dream GRPO reaches ${pm(dream.success)}% (${beats(dream)} the best of them) and s2r GRPO ${pm(s2r.success)}% (${beats(s2r)}), with 0 and ${int(s2r.realTransitions)} real transitions of their own.`,
    );
  }
  for (const algo of ['ppo', 'grpo']) {
    const scratch = by.get(`real-${algo}-5k`);
    const sim = by.get(`s2r-${algo}`);
    if (!scratch || !sim) continue;
    const gain = sim.success.mean - scratch.success.mean;
    lines.push(
      `- **${algo.toUpperCase()} on s2r's real budget, with and without the dream first:** s2r ${pm(sim.success)}% with ${int(sim.realTransitions)} real transitions; real from scratch ${pm(scratch.success)}% with ${int(scratch.realTransitions)}: the dream phase is worth ${signed(gain)} points at this real budget.`,
    );
  }
  const knn = by.get('dream-grpo-knn');
  if (knn && dream) {
    lines.push(`- **The kNN floor:** dream GRPO with the kNN experience model (the nearest real transition's outcome, no learning) reaches ${pm(knn.success)}%; with the neural model ${pm(dream.success)}%.`);
  }
  return lines;
}

export function markdown(report: PaperReport, svgName: string): string {
  const s = report.rows.map(summarise);
  const untrained = s.find((r) => r.id === 'untrained');
  const p = report.settings;
  const out: string[] = [];
  const made = report.invocation ?? `npm run experiment -- paper --env ${report.env} --seeds ${report.seeds.length}${report.preset === 'quick' ? ' --quick' : ''}`;
  const demos = report.regime === 'demos';
  out.push(`# ${report.env}${demos ? `, demonstrations only (tasks ${p.tasks ?? 'all'})` : ''}: the DreamGym table${report.preset === 'quick' ? ' in miniature (quick preset)' : ' (full preset)'}`, '');
  if (demos) {
    out.push(`**Where real RL is impractical.** The offline buffer holds at most ${p.perTask ?? '?'} oracle demonstrations of each task (${int(p.bufferEpisodes)} episodes, standing in for a team's own recordings) and ${int(p.exploration?.episodes ?? 0)} episodes of ${p.exploration?.mix ?? 'no'} exploration; BC and DPO train on it, the experience model learns from it, and the dream and s2r rows use no other real data but s2r's ${int(p.s2rRealBudget)} real transitions. Real mode (${int(p.realBudget)} real transitions) is for reference only.`, '');
  }
  out.push(`Made by \`${made}\` on ${report.createdAt.slice(0, 10)}; ` +
    `${report.rows.reduce((a, r) => a + r.runs.length, 0)} runs, ${report.jobs} at a time, ${(report.wallSeconds / 60).toFixed(1)} minutes in all. Success and score are greedy, on the real held-out split (${p.finalEvalEpisodes} episodes), mean ± std over seeds ${report.seeds.join(', ')}.`, '');
  if (report.pending && report.pending.length > 0) {
    out.push(`**This table is partial.** Not run yet: ${report.pending.join(', ')}. The same command with the same \`--work\` folder (and \`--rows\` naming them, or none for all) runs them and keeps the runs above.`, '');
  }
  if (report.preset === 'quick') {
    const full = regimePresets(report.regime ?? 'standard')[report.env]?.full;
    const fraction = full ? `about 1/${Math.round(full.realBudget / p.realBudget)} of the full preset's budgets` : 'a fraction of the full budgets';
    const fullText = full ? `uses ${int(full.realBudget)} / ${int(full.syntheticBudget)} / ${int(full.s2rRealBudget)}` : 'uses the full budgets';
    out.push(`**The quick preset runs the whole loop at ${fraction}** (real ${int(p.realBudget)}, synthetic ${int(p.syntheticBudget)}, s2r real ${int(p.s2rRealBudget)} transitions). Its numbers show the methods early in training, not where they end up; the full preset (\`--seeds 3\` without \`--quick\`) ${fullText}.`, '');
  }
  out.push(`| row | success % |${untrained ? ' vs untrained (points) |' : ''} score | real transitions | synthetic transitions | wall s | backend | experience model |`, `|---|---|${untrained ? '---|' : ''}---|---|---|---|---|---|`);
  for (const r of s) out.push(`| ${r.label}${r.perSeed.length < report.seeds.length ? ` (${r.perSeed.length} of ${report.seeds.length} seeds)` : ''} | ${pm(r.success)} |${gainText(r, untrained)} ${pm(r.score)} | ${int(r.realTransitions)} | ${int(r.syntheticTransitions)} | ${r.wallSeconds.toFixed(0)} | ${r.backend} | ${r.experience} |`);
  if (s.some((r) => r.id === 'bc' || r.id === 'dpo')) out.push('', 'BC and DPO train on the offline buffer (its real episodes; see Setup) and take no transition of their own: their real-transitions column is 0.');
  const byId = new Map(s.map((r) => [r.id, r]));
  const checked = demos ? [...demoClaims(byId), ...baselineClaims(byId)] : claims(s);
  out.push('', '## The claims', '', ...(checked.length > 0 ? checked : ['- None can be checked yet: each reads a row still to run.']), '');
  out.push(`## Learning curves`, '', `![held-out success against transitions](${svgName})`, '', 'Held-out success (greedy, ' + p.evalEpisodes + ' episodes per point during training, the final point on ' + p.finalEvalEpisodes + ') against transitions used (real + synthetic), mean over seeds.', '');
  out.push('## Setup', '', ...report.setup.map((c) => `- \`${c}\``), '');
  out.push('## Runs', '', 'Each row ran these commands (one per seed); `--history` keeps the full result with its curve.', '');
  for (const row of report.rows) {
    const seeds = row.seeds ?? report.seeds;
    out.push(`- ${row.label}: \`${row.commands[0]}\`${seeds.length > 1 ? ` (and seed${seeds.length > 2 ? 's' : ''} ${seeds.slice(1).join(', ')})` : ''}`);
  }
  out.push('');
  return out.join('\n');
}

const COLORS = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22', '#17becf', '#aec7e8', '#ffbb78', '#98df8a', '#ff9896', '#c5b0d5'];

/** One curve per row: the k-th held-out evaluation of each seed, averaged. */
export function curves(report: PaperReport): { label: string; points: [number, number][] }[] {
  return report.rows.map((row) => {
    const perSeed = row.runs.map((r) => {
      const pts: [number, number][] = r.history.filter((m) => m.eval).map((m) => [m.realTransitions + m.syntheticTransitions, 100 * (m.eval?.successRate ?? 0)]);
      if (r.eval) pts.push([r.realTransitions + r.syntheticTransitions, 100 * r.eval.successRate]);
      return pts;
    });
    const length = Math.min(...perSeed.map((p) => p.length));
    const points: [number, number][] = Array.from({ length: Number.isFinite(length) ? length : 0 }, (_, k) => [avg(perSeed.map((p) => (p[k] as [number, number])[0])), avg(perSeed.map((p) => (p[k] as [number, number])[1]))]);
    return { label: row.label, points };
  });
}

/** 1, 2 or 5 times a power of ten, at least `raw`: tick steps a reader can add up. */
function niceStep(raw: number): number {
  const p = 10 ** Math.floor(Math.log10(raw));
  return ([1, 2, 5, 10].find((m) => m * p >= raw) ?? 10) * p;
}

/** A plain SVG line chart (no DOM, no chart library: it runs under Node and is a few lines). */
export function svg(report: PaperReport): string {
  const series = curves(report);
  const W = 760, H = 420, left = 56, right = 220, top = 24, bottom = 48;
  const xStep = niceStep(Math.max(1, ...series.flatMap((s) => s.points.map((p) => p[0]))) / 5);
  const maxX = xStep * Math.ceil(Math.max(1, ...series.flatMap((s) => s.points.map((p) => p[0]))) / xStep);
  const maxY = Math.max(10, Math.ceil(Math.max(0, ...series.flatMap((s) => s.points.map((p) => p[1]))) / 10) * 10);
  const x = (v: number): number => left + ((W - left - right) * v) / maxX;
  const y = (v: number): number => H - bottom - ((H - top - bottom) * v) / maxY;
  const parts: string[] = [`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="12">`, `<rect width="${W}" height="${H}" fill="white"/>`];
  for (let i = 0; i <= 5; i++) {
    const v = (maxY * i) / 5;
    parts.push(`<line x1="${left}" x2="${W - right}" y1="${y(v)}" y2="${y(v)}" stroke="#ddd"/>`, `<text x="${left - 6}" y="${y(v) + 4}" text-anchor="end">${v.toFixed(0)}</text>`);
  }
  for (let t = 0; t <= maxX + 1e-9; t += xStep) parts.push(`<text x="${x(t)}" y="${H - bottom + 16}" text-anchor="middle">${int(t)}</text>`);
  parts.push(`<text x="${(left + W - right) / 2}" y="${H - 10}" text-anchor="middle">transitions (real + synthetic)</text>`);
  parts.push(`<text transform="translate(16 ${(top + H - bottom) / 2}) rotate(-90)" text-anchor="middle">held-out success %</text>`);
  series.forEach((s, i) => {
    const color = COLORS[i % COLORS.length];
    // A row that uses no transition (the untrained policy, the offline baselines) is a level, not a curve.
    const level = s.points.length > 0 && s.points.every((p) => p[0] === 0);
    const dash = level ? ' stroke-dasharray="2 3"' : s.label.includes('w/o') ? ' stroke-dasharray="5 3"' : '';
    const last = s.points.at(-1);
    if (level && last) parts.push(`<line x1="${left}" x2="${W - right}" y1="${y(last[1]).toFixed(1)}" y2="${y(last[1]).toFixed(1)}" stroke="${color}" stroke-width="2"${dash}/>`);
    else if (s.points.length > 0) parts.push(`<polyline fill="none" stroke="${color}" stroke-width="2"${dash} points="${s.points.map((p) => `${x(p[0]).toFixed(1)},${y(p[1]).toFixed(1)}`).join(' ')}"/>`);
    const ly = top + 14 + i * 18;
    parts.push(`<line x1="${W - right + 12}" x2="${W - right + 36}" y1="${ly - 4}" y2="${ly - 4}" stroke="${color}" stroke-width="2"${dash}/>`, `<text x="${W - right + 42}" y="${ly}">${s.label.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</text>`);
  });
  parts.push('</svg>');
  return parts.join('\n');
}
