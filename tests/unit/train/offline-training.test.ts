/**
 * The offline baselines (modes bc and dpo) on a small seeded shop buffer, on the cpu backend (pure
 * JS, bit-reproducible): cloning raises the likelihood of what the successes did and beats the
 * untrained policy on held-out tasks; DPO raises its pairs' margins; both refuse a buffer that
 * holds nothing they can learn from, saying how to seed one.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../../src/cli/main.ts';
import { exportPolicy, importPolicy } from '../../../src/policy/policy-file.ts';
import { UsageError } from '../../../src/core/errors.ts';
import type { Transition } from '../../../src/core/types.ts';
import { envSpec } from '../../../src/envs/registry.ts';
import { offlineEpisodes } from '../../../src/jobs/offline-data.ts';
import { createOfflineTrainer, train } from '../../../src/jobs/train.ts';
import { useBackend } from '../../../src/platform/tf.ts';
import { DEFAULT_POLICY, Policy, type PolicyConfig } from '../../../src/policy/policy.ts';
import { MemoryReplayStore } from '../../../src/replay/memory-store.ts';
import { seedEpisodes, type SeedMix } from '../../../src/replay/seed.ts';
import { evaluatePolicy } from '../../../src/train/evaluate.ts';
import { cloningData, cloningLogLikelihood } from '../../../src/train/offline/bc.ts';
import { measureReferenceMargins, preferenceData, preferenceMargins } from '../../../src/train/offline/dpo.ts';
import { groupEpisodes } from '../../../src/train/offline/episodes.ts';
import { OfflineTrainer, type OfflineTrainOptions } from '../../../src/train/offline/trainer.ts';
import { OFFLINE_DEFAULTS } from '../../../src/train/offline/config.ts';
import { envOfflineSettings } from '../../../src/train/env-settings.ts';

// A small network on small features, as the real-mode test trains: seconds on the cpu backend.
const POLICY: Partial<PolicyConfig> = { hidden: 32, featurizer: { stateBuckets: 512, actionBuckets: 256, historyWindow: 3, maxElements: 40 } };
const SOURCE = { name: 'test.jsonl', howToSeed: 'seed it with: buffer seed --mix oracle=0.4,random=0.6' };
const EVAL_EPISODES = 60;

async function seeded(episodes: number, mix: SeedMix): Promise<Transition[]> {
  const out: Transition[] = [];
  for await (const e of seedEpisodes({ spec: envSpec('shop'), episodes, mix, seed: 3, createdAt: 0 })) out.push(...e.transitions);
  return out;
}

function data(transitions: readonly Transition[]): OfflineTrainOptions['data'] {
  const { episodes, count } = groupEpisodes(transitions);
  return { episodes, count, offlineTransitions: transitions.length, source: SOURCE };
}

let buffer: Transition[] = [];

beforeAll(async () => {
  await useBackend(['cpu']);
  buffer = await seeded(60, { oracle: 0.4, noisy: 0.3, random: 0.3 });
}, 60_000); // seconds alone, but the hook's default 10 s ran out with the suite's other files and two runs sharing the 2 cores

const base = (mode: 'bc' | 'dpo'): OfflineTrainOptions => ({
  env: 'shop',
  mode,
  seed: 5,
  backend: 'cpu',
  data: data(buffer),
  policy: POLICY,
  finalEvalEpisodes: EVAL_EPISODES,
});

describe('behaviour cloning (mode bc)', () => {
  it('raises the likelihood of the cloned actions and beats the untrained policy on held-out tasks; the same seed gives the same run', async () => {
    const spec = envSpec('shop');
    const untrained = new Policy(new OfflineTrainer(base('bc')).policyConfig, 5);
    const before = await evaluatePolicy({ spec, policy: untrained, split: 'test', episodes: EVAL_EPISODES, seed: 5 });
    const cloned = cloningData(untrained, groupEpisodes(buffer).episodes);
    const likelihoodBefore = await cloningLogLikelihood(untrained, cloned.steps);
    untrained.dispose();

    // The small network learns slower than the default one: a larger rate than the default 1e-3.
    const trainer = new OfflineTrainer({ ...base('bc'), config: { epochs: 10, learningRate: 3e-3 } });
    const result = await trainer.run();
    expect(await cloningLogLikelihood(trainer.policy, cloned.steps)).toBeGreaterThan(likelihoodBefore + 0.3);
    expect(result).toMatchObject({ mode: 'bc', algo: 'bc', realTransitions: 0, syntheticTransitions: 0, iterations: 10, stopped: false });
    expect(result.history.map((m) => m.phase)).toEqual(Array(10).fill('offline'));
    const losses = result.history.map((m) => m.offline!.loss);
    expect(losses.at(-1)).toBeLessThan(losses[0]! - 0.3);
    expect(result.offline).toMatchObject({ successes: cloned.episodes, steps: cloned.steps.length, skippedSteps: 0 });
    expect(result.eval!.episodes).toBe(EVAL_EPISODES);
    expect(result.eval!.successRate).toBeGreaterThan(before.successRate + 0.1);

    // The same seed gives the same run: two epochs (the second from the once-updated weights) and a
    // short evaluation pin it as well as the ten above would, at a fraction of a third full run.
    const short = (): OfflineTrainOptions => ({ ...base('bc'), config: { epochs: 2, learningRate: 3e-3 }, finalEvalEpisodes: 10 });
    const once = await new OfflineTrainer(short()).run();
    const again = await new OfflineTrainer(short()).run();
    expect(again.eval!.episodes).toBe(10);
    expect(again.eval!.actionsDigest).toBe(once.eval!.actionsDigest);
    const strip = (h: typeof result.history) => h.map(({ wallSeconds: _w, samplesPerSecond: _s, ...rest }) => rest);
    expect(strip(again.history)).toHaveLength(2);
    expect(strip(again.history)).toEqual(strip(once.history));
  }, 120_000);

  it('clones into a saved policy (--init): it starts from that policy, not the seed\'s, and says so; a policy of another network is refused', async () => {
    // The saved policy: another seed's network, one epoch cloned, so that it is neither this seed's start nor the result.
    const source = new OfflineTrainer({ ...base('bc'), seed: 9, config: { epochs: 1, learningRate: 3e-3 }, finalEvalEpisodes: 4 });
    await source.run();
    const bytes = await exportPolicy(source.policy, { env: 'shop', algorithm: 'bc', backend: 'cpu', training: {}, evaluation: null, createdAt: '2026-12-06T00:00:00.000Z' });
    const sourceWeights = (await source.policy.network.getWeights()).map((w) => Array.from(w.data));
    source.policy.dispose();

    // Zero epochs: the run is the saved policy as it was.
    const started = new OfflineTrainer({ ...base('bc'), config: { epochs: 0 }, initialPolicy: { name: 'source.dgp', bytes }, finalEvalEpisodes: 10 });
    expect((await started.policy.network.getWeights()).map((w) => Array.from(w.data))).toEqual(sourceWeights);
    const zero = await started.run();
    expect(zero.initialPolicy).toMatchObject({ name: 'source.dgp', env: 'shop', algorithm: 'bc' });
    const fresh = await new OfflineTrainer({ ...base('bc'), config: { epochs: 0 }, finalEvalEpisodes: 10 }).run();
    expect(fresh.initialPolicy).toBeUndefined();
    expect(zero.eval!.actionsDigest).not.toBe(fresh.eval!.actionsDigest);

    // Cloning goes on from it: the first epoch's loss is the saved policy's, below a fresh network's.
    const cloned = await new OfflineTrainer({ ...base('bc'), config: { epochs: 1, learningRate: 3e-3 }, initialPolicy: { name: 'source.dgp', bytes }, finalEvalEpisodes: 4 }).run();
    const scratch = await new OfflineTrainer({ ...base('bc'), config: { epochs: 1, learningRate: 3e-3 }, finalEvalEpisodes: 4 }).run();
    expect(cloned.history[0]!.offline!.loss).toBeLessThan(scratch.history[0]!.offline!.loss);

    expect(() => new OfflineTrainer({ ...base('bc'), policy: { ...POLICY, hidden: 16 }, initialPolicy: { name: 'source.dgp', bytes } })).toThrow(/--init source\.dgp: its network differs from the one this run trains \(hidden\)/);
  }, 120_000);

  it('evaluates on a sample every --eval-every epochs, and not after the last (the final evaluation does)', async () => {
    const result = await new OfflineTrainer({ ...base('bc'), config: { epochs: 3 }, evalEvery: 1, evalEpisodes: 4, finalEvalEpisodes: 5 }).run();
    expect(result.history.map((m) => m.eval?.episodes ?? null)).toEqual([4, 4, null]);
    expect(result.eval?.episodes).toBe(5);
  }, 60_000);

  it('starts from the environment’s settings (chosen on its validation data) over the mode’s own, and the caller’s over both', () => {
    for (const mode of ['bc', 'dpo'] as const) {
      const own = envOfflineSettings(envSpec('shop'), mode);
      expect(Object.keys(own).length).toBeGreaterThan(0);
      expect(new OfflineTrainer(base(mode)).config).toEqual({ ...OFFLINE_DEFAULTS[mode], ...own, algo: mode });
      expect(new OfflineTrainer({ ...base(mode), config: { epochs: 2, learningRate: undefined } }).config).toEqual({ ...OFFLINE_DEFAULTS[mode], ...own, epochs: 2, algo: mode });
    }
  });

  it('evaluates on validation data: --eval-split plays another split, --eval-unseen only its tasks the buffer holds no episode of', async () => {
    const held = new Set(groupEpisodes(buffer).episodes.map((e) => e.taskId));
    const trainer = new OfflineTrainer({ ...base('bc'), config: { epochs: 1 }, evalSplit: 'train', evalUnseen: true, finalEvalEpisodes: 6 });
    const result = await trainer.run();
    expect(result.eval).toMatchObject({ split: 'train (unseen)', episodes: 6 });

    // What is left out is never played, and what is left is all played: here every train task but three.
    const spec = envSpec('shop');
    const train = spec.tasks('train');
    const kept = train.filter((t) => !held.has(t.id)).slice(0, 3);
    const exclude = new Set(train.filter((t) => !kept.includes(t)).map((t) => t.id));
    expect([...held].every((id) => exclude.has(id))).toBe(true);
    const played: string[] = [];
    const evaluation = await evaluatePolicy({ spec, policy: trainer.policy, split: 'train', exclude, onEpisode: (t) => played.push(t.task.id) });
    expect(played.sort()).toEqual(kept.map((t) => t.id).sort());
    expect(evaluation.split).toBe('train (unseen)');
    await expect(evaluatePolicy({ spec, policy: trainer.policy, split: 'train', exclude: new Set(train.map((t) => t.id)) })).rejects.toThrow(/no train task is left to evaluate on/);
    trainer.policy.dispose();

    // An unknown split is refused before any epoch, in the environment's words.
    expect(() => new OfflineTrainer({ ...base('bc'), evalSplit: 'valid' })).toThrow(/^shop has no split "valid"; use one of: train, test$/);
  }, 60_000);
});

describe('DPO (mode dpo)', () => {
  it('raises the chosen-minus-rejected margin over the reference on its pairs', async () => {
    const policy = new Policy({ ...new OfflineTrainer(base('dpo')).policyConfig }, 5);
    const pairs = preferenceData(policy, groupEpisodes(buffer).episodes);
    await measureReferenceMargins(policy, pairs);
    // At the reference every margin is 0 by definition.
    expect(Math.max(...(await preferenceMargins(policy, pairs)).map(Math.abs))).toBeLessThan(1e-4);
    policy.dispose();

    // The small network at DPO's default rate (1e-4) would need many more epochs to move.
    const trainer = new OfflineTrainer({ ...base('dpo'), config: { epochs: 3, learningRate: 3e-3 }, finalEvalEpisodes: 5 });
    const result = await trainer.run();
    // The trainer's own pairs, measured again after training against the margins it started from.
    const after = await preferenceMargins(trainer.policy, trainer.preferences!);
    expect(after.reduce((a, m) => a + m, 0) / after.length).toBeGreaterThan(0.5);
    expect(after.filter((m) => m > 0).length).toBeGreaterThan(0.8 * after.length);
    expect(result.history.at(-1)!.offline!.margin).toBeGreaterThan(result.history[0]!.offline!.margin!);
    expect(result.offline?.pairs).toMatchObject({ total: pairs.pairs.length, dropped: pairs.droppedPairs });
    expect(result.config).toMatchObject({ algo: 'dpo', beta: 0.1, learningRate: 3e-3, epochs: 3 });
  }, 120_000);
});

describe('train --mode bc|dpo on the command line', () => {
  it('trains from a buffer file and writes the summary, the history and a policy file that says how it was made', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'dreamgym-offline-'));
    const file = path.join(dir, 'shop.jsonl');
    const quiet = { out: () => {}, result: () => {}, progress: () => {} };
    expect(await main(['buffer', 'seed', '--env', 'shop', '--episodes', '12', '--mix', 'oracle=0.5,random=0.5', '--seed', '2', '--out', file], quiet)).toBe(0);
    for (const mode of ['bc', 'dpo'] as const) {
      const stdout: string[] = [];
      const stderr: string[] = [];
      const io = { out: (t: string) => stdout.push(t), result: (v: unknown) => stdout.push(JSON.stringify(v)), progress: (t: string) => stderr.push(t) };
      const out = path.join(dir, `${mode}.dgp`);
      const history = path.join(dir, `${mode}.json`);
      // wasm (the CLI's default): the CLI trains its default network, whose products on the cpu backend
      // (plain JS) cost several times as much; what is pinned here is what the command writes.
      const args = ['train', '--env', 'shop', '--mode', mode, '--buffer', file, '--epochs', '2', '--seed', '4', '--backend', 'wasm', '--final-eval-episodes', '3', '--out', out, '--history', history, '--json'];
      expect(await main(args, io), stderr.join('\n')).toBe(0);
      const summary = JSON.parse(stdout.at(-1) as string);
      expect(summary).toMatchObject({ env: 'shop', mode, algo: mode, backend: 'wasm', realTransitions: 0, syntheticTransitions: 0, config: { algo: mode, epochs: 2 }, eval: { episodes: 3 } });
      expect(summary.offline).toMatchObject({ episodes: 12, successes: 6, failures: 6 });
      expect(stderr.filter((line) => line.startsWith('epoch '))).toHaveLength(2);
      const run = JSON.parse(readFileSync(history, 'utf8'));
      expect(run).toMatchObject({ mode, algo: mode, iterations: 2 });
      expect(run.history).toHaveLength(2);
      const { header, policy } = importPolicy(new Uint8Array(readFileSync(out)));
      expect(header).toMatchObject({ env: 'shop', algorithm: mode, training: { mode, seed: 4, realBudget: 0, realTransitions: 0, iterations: 2 } });
      policy.dispose();
    }
  }, 60_000);
});

describe('the untrained baseline (train --iterations 0)', () => {
  it('evaluates the policy every run with the seed starts from, with 0 transitions', async () => {
    const stdout: string[] = [];
    const io = { out: (t: string) => stdout.push(t), result: (v: unknown) => stdout.push(JSON.stringify(v)), progress: () => {} };
    // wasm (the CLI's default): the default network's products cost several times as much on the cpu
    // backend (plain JS). The CLI leaves wasm in use, so the policy below is evaluated on it too.
    const args = ['train', '--env', 'shop', '--mode', 'real', '--algo', 'grpo', '--real-budget', '1000', '--iterations', '0', '--seed', '4', '--backend', 'wasm', '--final-eval-episodes', '6', '--json'];
    try {
      expect(await main(args, io)).toBe(0);
      const summary = JSON.parse(stdout.at(-1) as string);
      expect(summary).toMatchObject({ backend: 'wasm', realTransitions: 0, syntheticTransitions: 0, eval: { episodes: 6 } });
      const initial = new Policy(DEFAULT_POLICY, 4);
      const expected = await evaluatePolicy({ spec: envSpec('shop'), policy: initial, split: 'test', episodes: 6, seed: 4 });
      initial.dispose();
      expect(summary.eval.actionsDigest).toBe(expected.actionsDigest);

      // Every mode evaluates on the split --eval-split names; --eval-unseen (the buffer's tasks left out) is the offline modes' alone.
      stdout.length = 0;
      expect(await main([...args.slice(0, -3), '--final-eval-episodes', '4', '--eval-split', 'train', '--json'], io)).toBe(0);
      expect(JSON.parse(stdout.at(-1) as string).eval).toMatchObject({ split: 'train', episodes: 4 });
      const stderr: string[] = [];
      expect(await main([...args, '--eval-unseen'], { ...io, progress: (t: string) => stderr.push(t) })).toBe(2);
      expect(stderr.join('\n')).toMatch(/--eval-unseen does not apply with --mode real; drop it/);
    } finally {
      await useBackend(['cpu']);
    }
  }, 60_000);
});

describe('what the offline modes refuse', () => {
  it('refuses cloning without a successful episode, and DPO without a success and a failure, saying how to seed one', async () => {
    const random = await seeded(4, { random: 1 });
    const oracle = await seeded(4, { oracle: 1 });
    expect(() => new OfflineTrainer({ ...base('bc'), data: data(random) })).toThrow(
      /^test\.jsonl has no successful shop episode to clone \(4 whole shop episodes, 0 successful\); seed it with: buffer seed --mix oracle=0\.4,random=0\.6$/,
    );
    expect(() => new OfflineTrainer({ ...base('dpo'), data: data(random) })).toThrow(/has no successful shop episode, so no preference pair for DPO, which needs both/);
    expect(() => new OfflineTrainer({ ...base('dpo'), data: data(oracle) })).toThrow(/has no failed shop episode, so no preference pair for DPO, which needs both \(4 whole shop episodes, 4 successful\)/);
    expect(() => new OfflineTrainer({ ...base('bc'), data: data(oracle), config: { beta: 0.5 } })).toThrow(/β is a DPO setting/);
  });

  it('refuses an empty buffer before reading it, and a job the trainer refuses throws before the run starts', async () => {
    const store = new MemoryReplayStore();
    await expect(offlineEpisodes(store, 'shop', SOURCE)).rejects.toThrow(/^test\.jsonl holds no real shop transitions to train on; seed it with/);
    await store.add(await seeded(3, { random: 1 }));
    const read = await offlineEpisodes(store, 'shop', SOURCE);
    expect(read.count).toMatchObject({ episodes: 3, successes: 0 });
    let started = false;
    const job = { env: 'shop', mode: 'bc' as const, backend: 'cpu', run: { seed: 1, epochs: 1, evalEvery: 0 }, data: read };
    expect(() => createOfflineTrainer(job)).toThrow(UsageError);
    await expect(train(job, { onStart: () => (started = true) })).rejects.toThrow(/no successful shop episode to clone/);
    expect(started).toBe(false);
  });
});
