/**
 * A run whose update goes non-finite (a NaN or infinite loss, gradient or weight) stops at that
 * update instead of training on NaN to its end: the weights go back to the last finite ones, the
 * command still writes them and the history so far, and fails (exit 1, not 2) naming the likely
 * cause. The offline modes (bc, dpo) stop the same way.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../../src/cli/main.ts';
import type { Transition } from '../../../src/core/types.ts';
import { envSpec } from '../../../src/envs/registry.ts';
import { useBackend } from '../../../src/platform/tf.ts';
import { checkPolicyWeights } from '../../../src/policy/policy-file.ts';
import type { PolicyConfig } from '../../../src/policy/policy.ts';
import { seedEpisodes } from '../../../src/replay/seed.ts';
import { groupEpisodes } from '../../../src/train/offline/episodes.ts';
import { OfflineTrainer } from '../../../src/train/offline/trainer.ts';
import { Trainer } from '../../../src/train/trainer.ts';
import { capture } from '../../cli-io.ts';

const POLICY: Partial<PolicyConfig> = { hidden: 32, featurizer: { stateBuckets: 512, actionBuckets: 256, historyWindow: 3, maxElements: 40 } };

async function finiteWeights(policy: { network: { getWeights: () => Promise<{ data: Float32Array }[]> } }): Promise<boolean> {
  return (await policy.network.getWeights()).every((w) => w.data.every(Number.isFinite));
}

beforeAll(async () => {
  await useBackend(['cpu']);
});

describe('a diverged run', () => {
  it('stops at the first non-finite update, writes the last finite policy and the history, and fails naming the setting', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'dreamgym-diverged-'));
    const out = path.join(dir, 'p.dgp');
    const history = path.join(dir, 'h.json');
    const io = capture();
    const args = ['train', '--env', 'shop', '--mode', 'real', '--algo', 'grpo', '--real-budget', '400', '--backend', 'cpu', '--seed', '1', '--set', 'tasksPerIteration=2,groupSize=4,parallelEnvs=8,epochs=1,entropyCoef=1e300', '--out', out, '--history', history, '--json'];
    expect(await main(args, io)).toBe(1);
    const last = io.stderr.at(-1) ?? '';
    expect(last).toMatch(/^error: training diverged at iteration 1: its gradient norm became NaN or infinite, so the run stopped there; likely cause: entropyCoef=1e\+300 \(default [\d.e-]+\), far from the default/);
    expect(last).toContain(`--out ${out}, --history ${history}`);
    // No summary: the run failed, and its figures are in the history.
    expect(io.stdout).toEqual([]);
    const { weights } = checkPolicyWeights(new Uint8Array(readFileSync(out)));
    expect(weights.every((w) => w.data.every(Number.isFinite))).toBe(true);
    expect(JSON.parse(readFileSync(history, 'utf8'))).toMatchObject({ iterations: 0, diverged: { iteration: 1, nonFinite: ['gradNorm'] }, history: [] });
  }, 120_000);

  it('keeps the iterations before the one that diverged, with their finite weights', async () => {
    // A learning rate no flag accepts: the first update is finite (and huge), the next one overflows.
    const trainer = new Trainer({ env: 'shop', mode: 'real', algo: 'ppo', realBudget: 3000, seed: 2, backend: 'cpu', maxDifficulty: 4, policy: POLICY, algoConfig: { episodesPerIteration: 8, parallelEnvs: 8, minibatchSize: 512, epochs: 1, learningRate: 1e37, maxGradNorm: null } });
    const result = await trainer.run();
    expect(result.diverged?.iteration).toBeGreaterThan(1);
    expect(result.history).toHaveLength((result.diverged?.iteration ?? 0) - 1);
    expect(result.iterations).toBe(result.history.length);
    expect(result.history.every((m) => Number.isFinite(m.gradNorm) && Number.isFinite(m.policyLoss))).toBe(true);
    expect(result.eval).toBeNull();
    expect(await finiteWeights(trainer.policy)).toBe(true);
    trainer.dispose();
  }, 120_000);

  it('stops a DPO run the same way, on an infinite β', async () => {
    const transitions: Transition[] = [];
    for await (const e of seedEpisodes({ spec: envSpec('shop'), episodes: 24, mix: { oracle: 0.5, random: 0.5 }, seed: 3, createdAt: 0 })) transitions.push(...e.transitions);
    const { episodes, count } = groupEpisodes(transitions);
    const trainer = new OfflineTrainer({
      env: 'shop',
      mode: 'dpo',
      seed: 1,
      backend: 'cpu',
      policy: POLICY,
      data: { episodes, count, offlineTransitions: transitions.length, source: { name: 'test.jsonl', howToSeed: '' } },
      config: { epochs: 3, beta: 1e300 },
    });
    const result = await trainer.run();
    expect(result.diverged).toMatchObject({ iteration: 1 });
    expect(result.history).toEqual([]);
    expect(result.eval).toBeNull();
    expect(await finiteWeights(trainer.policy)).toBe(true);
  }, 120_000);
});
