/**
 * The job entry points the CLI, the worker services and the benches share (src/jobs): what each
 * does with its settings, its hooks and a stop, apart from any caller.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { envSpec } from '../../../src/envs/registry.ts';
import { KnnExperienceModel } from '../../../src/experience/knn.ts';
import { evaluateFidelity } from '../../../src/jobs/evaluate-fidelity.ts';
import { exportTrainedPolicy } from '../../../src/jobs/policy-export.ts';
import { rollout, rolloutPolicyFile } from '../../../src/jobs/rollout.ts';
import { seedBuffer, type SeedBufferProgress } from '../../../src/jobs/seed-buffer.ts';
import { createTrainer, train, type TrainJob } from '../../../src/jobs/train.ts';
import { useBackend } from '../../../src/platform/tf.ts';
import { MemoryReplayStore } from '../../../src/replay/memory-store.ts';
import { ReplayBuffer } from '../../../src/replay/retrieval.ts';
import { rollout as playScripted } from '../../../src/envs/episode.ts';
import { failingOn } from '../envs/failing-env.ts';

const shop = envSpec('shop');
const seedSettings = { episodes: 40, mix: 'oracle=0.5,random=0.5', seed: 3 };
const smallRun = { seed: 1, realBudget: 200, evalEvery: 0, finalEvalEpisodes: 5, lambda: 0.2, explorationFloor: 0.1 };
const job: TrainJob = {
  env: 'shop',
  mode: 'real',
  algo: 'grpo',
  backend: 'cpu',
  run: smallRun,
  curriculum: false,
  algoConfig: { tasksPerIteration: 4, groupSize: 4, parallelEnvs: 16, minibatchSize: 64, epochs: 1 },
  maxDifficulty: 4,
};

beforeAll(async () => {
  await useBackend(['cpu']);
});

describe('seedBuffer', () => {
  it('writes every episode as one run, reports committed batches, and tallies the agents', async () => {
    const store = new MemoryReplayStore();
    const progress: SeedBufferProgress[] = [];
    const result = await seedBuffer(shop, seedSettings, { store, onProgress: (p) => progress.push(p) });
    expect(result).toMatchObject({ runId: 'seed-shop-3', episodes: 40, total: 40, stopped: false });
    expect(result.transitions).toBe(await store.count({ runId: 'seed-shop-3' }));
    expect(Object.values(result.byAgent).reduce((a, t) => a + t.episodes, 0)).toBe(40);
    expect(result.byAgent.oracle?.successRate).toBe(1);
    // Batches of at most 16 episodes, each reported once it is committed.
    expect(progress.map((p) => p.episodes)).toEqual([16, 32, 40]);
    const [run] = await store.runs();
    expect(run).toMatchObject({ id: 'seed-shop-3', kind: 'seed:oracle=0.5,random=0.5', meta: { episodesSaved: 40, transitions: result.transitions } });
    expect((await store.taskStats('shop')).reduce((a, s) => a + s.attempts, 0)).toBe(40);
  });

  it('stops after the batch in flight when its signal aborts, keeping what was committed', async () => {
    const store = new MemoryReplayStore();
    const stop = new AbortController();
    const result = await seedBuffer(shop, seedSettings, { store, signal: stop.signal, onProgress: () => stop.abort() });
    expect(result.stopped).toBe(true);
    expect(result.episodes).toBe(16);
    expect(await store.count()).toBe(result.transitions);
    expect((await store.runs())[0]?.meta).toMatchObject({ episodesSaved: 16 });
  });

  it('leaves out the episodes the environment ended, and says how many and where', async () => {
    const clean = new MemoryReplayStore();
    const all = await seedBuffer(shop, seedSettings, { store: clean });
    expect(all.envErrors).toBe(0);
    const transitions = (await clean.page({ limit: 100_000 })).items;
    // Two tasks whose episodes have a second step, where the failing page ends them.
    const counts = new Map<string, number>();
    for (const t of transitions) counts.set(t.taskId, (counts.get(t.taskId) ?? 0) + 1);
    const failed = [...counts].filter(([, n]) => n >= 2).slice(0, 2).map(([id]) => id);
    const store = new MemoryReplayStore();
    const result = await seedBuffer(failingOn(shop, new Set(failed)), seedSettings, { store });
    const played = transitions.filter((t) => failed.includes(t.taskId)).map((t) => t.episodeId);
    expect(result.envErrors).toBe(new Set(played).size);
    expect(result.firstEnvError).toMatchObject({ taskId: failed[0], error: 'the page did not answer in 10 s' });
    expect(result).toMatchObject({ episodes: 40 - result.envErrors, stopped: false });
    expect((await store.page({ limit: 100_000 })).items.some((t) => failed.includes(t.taskId))).toBe(false);
    expect(await store.count()).toBe(transitions.filter((t) => !failed.includes(t.taskId)).length);
  });

  it('plays again an episode a page ended once, so the buffer is the one seeded without failures', async () => {
    const steps = async (store: MemoryReplayStore) => (await store.page({ limit: 100_000 })).items.map((t) => [t.taskId, t.state.text, t.action, t.reward, t.done, t.next.text]);
    const clean = new MemoryReplayStore();
    await seedBuffer(shop, seedSettings, { store: clean });
    const store = new MemoryReplayStore();
    // Every task's first episode hangs at its first step.
    const result = await seedBuffer(failingOn(shop, () => true, 1, 1), seedSettings, { store });
    expect(result).toMatchObject({ episodes: 40, envErrors: 0, stopped: false });
    expect(await steps(store)).toEqual(await steps(clean));
    // And says so: a buffer seeded on a loaded machine is the same, but its run was not clean.
    expect(result.retried).toBe(new Set((await clean.page({ limit: 100_000 })).items.map((t) => t.episodeId)).size);
    expect(await seedBuffer(shop, seedSettings, { store: new MemoryReplayStore() })).not.toHaveProperty('retried');
  });

  it('records what was saved when the store fails mid-run, and passes the failure on', async () => {
    const store = new MemoryReplayStore();
    let writes = 0;
    const failing = async (transitions: readonly unknown[]) => {
      if (++writes === 2) throw new Error('disk full');
      await store.add(transitions as never);
    };
    await expect(seedBuffer(shop, seedSettings, { store, write: failing })).rejects.toThrow('disk full');
    expect((await store.runs())[0]?.meta).toMatchObject({ episodesSaved: 16 });
  });
});

describe('train', () => {
  it('announces the built trainer before its first iteration and returns it with the result', async () => {
    const events: string[] = [];
    const { trainer, result } = await train(job, { onStart: () => events.push('start'), onIteration: (m) => events.push(`iter ${m.iteration}`) });
    expect(events[0]).toBe('start');
    expect(events.slice(1).every((e) => e.startsWith('iter'))).toBe(true);
    expect(result.stopped).toBe(false);
    expect(result.eval?.episodes).toBe(5);
    expect(result.realTransitions).toBe(trainer.realTransitions);
    trainer.policy.dispose();
  }, 60_000);

  it('stops after the current iteration when its signal aborts, with a policy that still exports', async () => {
    const stop = new AbortController();
    const { trainer, result } = await train({ ...job, run: { ...smallRun, realBudget: 100_000 } }, { signal: stop.signal, onIteration: () => stop.abort() });
    expect(result.stopped).toBe(true);
    expect(result.iterations).toBe(1);
    expect((await exportTrainedPolicy(trainer, 'cpu')).length).toBeGreaterThan(1000);
    trainer.policy.dispose();
  }, 60_000);

  it('refuses a job the trainer cannot run before onStart', async () => {
    let started = false;
    await expect(train({ ...job, mode: 'dream' }, { onStart: () => (started = true) })).rejects.toThrow(/dream/);
    expect(started).toBe(false);
  });
});

describe('rollout', () => {
  it('plays a scripted policy with the spec-checked settings, as the episode loop does', async () => {
    const summary = await rollout(shop, 'oracle', { split: 'test', episodes: 6, seed: 2, maxSteps: 3 });
    const direct = await playScripted({ spec: shop, policy: 'oracle', split: 'test', episodes: 6, seed: 2, envOptions: { maxSteps: 3 } });
    expect(summary.digest).toBe(direct.digest);
    expect(summary.meanSteps).toBeLessThanOrEqual(3);
  });

  it('plays a saved policy greedily and refuses one saved for another environment', async () => {
    const trainer = createTrainer(job);
    const bytes = await exportTrainedPolicy(trainer, 'cpu');
    trainer.policy.dispose();
    const played = await rolloutPolicyFile(shop, bytes, { split: 'test', episodes: 4, seed: 1 });
    expect(played).toMatchObject({ split: 'test', episodes: 4, header: { env: 'shop' } });
    expect(played.actionsDigest).toMatch(/^[0-9a-f]{64}$/);
    await expect(rolloutPolicyFile(envSpec('home'), bytes, { split: 'valid-unseen', seed: 1 }, { name: 'p.dgp' })).rejects.toThrow('p.dgp is a policy for "shop", not "home"');
  }, 60_000);
});

describe('evaluateFidelity', () => {
  const settings = { heldout: 30, mix: 'oracle=0.5,random=0.5', seed: 1, k: 3 };
  const source = { name: 'the test buffer', howToSeed: 'seed it first' };

  it('scores held-out transitions against the buffer it retrieves from', async () => {
    const store = new MemoryReplayStore();
    const buffer = await ReplayBuffer.open(store);
    await seedBuffer(shop, seedSettings, { store, write: (t) => buffer.add(t) });
    const result = await evaluateFidelity(shop, settings, { model: new KnnExperienceModel(), buffer, source });
    expect(result.scored).toBe(30);
    expect(result.offlineTransitions).toBe(await store.count({ env: 'shop', source: 'real' }));
    expect(result.report.transitions).toBe(30);
    expect(result.report.nextStateF1).toBeGreaterThan(0);
    const buys = await evaluateFidelity(shop, { ...settings, onlyAction: 'click[Buy Now]' }, { model: new KnnExperienceModel(), buffer, source });
    expect(buys.scored).toBeLessThan(buys.played);
    await expect(evaluateFidelity(shop, { ...settings, onlyAction: 'click[Nowhere]' }, { model: new KnnExperienceModel(), buffer, source })).rejects.toThrow(/none of the 30 held-out transitions is "click\[Nowhere\]"/);
  });

  it('plays the held-out episodes on the split it is given, to choose settings off the reported one', async () => {
    const store = new MemoryReplayStore();
    const buffer = await ReplayBuffer.open(store);
    await seedBuffer(shop, seedSettings, { store, write: (t) => buffer.add(t) });
    const onTest = await evaluateFidelity(shop, settings, { model: new KnnExperienceModel(), buffer, source });
    expect(onTest.split).toBe('test');
    let planned = '';
    const onTrain = await evaluateFidelity(shop, { ...settings, split: 'train' }, { model: new KnnExperienceModel(), buffer, source, onStart: (plan) => (planned = plan.split) });
    expect(onTrain.split).toBe('train');
    expect(planned).toBe('train');
    // Other tasks, so other steps: the two reports differ.
    expect(onTrain.report).not.toEqual(onTest.report);
  });

  it('refuses a buffer without real transitions of the env, in the caller\'s words', async () => {
    const buffer = await ReplayBuffer.open(new MemoryReplayStore());
    await expect(evaluateFidelity(shop, settings, { model: new KnnExperienceModel(), buffer, source })).rejects.toThrow('the test buffer holds no real shop transitions to retrieve from; seed it first');
  });
});

describe('experience eval on a policy\'s own steps', () => {
  it('scores the model on the greedy steps of a saved policy, with success and done precision and recall', async () => {
    const { main } = await import('../../../src/cli/main.ts');
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const path = await import('node:path');
    const dir = mkdtempSync(path.join(tmpdir(), 'dg-on-policy-'));
    const buffer = path.join(dir, 'b.jsonl');
    const policyFile = path.join(dir, 'p.dgp');
    const trainer = createTrainer(job);
    writeFileSync(policyFile, await exportTrainedPolicy(trainer, 'cpu'));
    trainer.policy.dispose();
    const out: string[] = [];
    const err: string[] = [];
    const io = { out: (t: string) => out.push(t), result: (v: unknown) => out.push(JSON.stringify(v)), progress: (t: string) => err.push(t) };
    expect(await main(['buffer', 'seed', '--env', 'shop', '--episodes', '30', '--out', buffer], io)).toBe(0);
    expect(await main(['experience', 'eval', '--env', 'shop', '--experience', 'knn', '--buffer', buffer, '--heldout', '40', '--policy', policyFile, '--backend', 'cpu', '--json'], io)).toBe(0);
    const report = JSON.parse(out.at(-1) as string);
    expect(report.heldout).toMatchObject({ split: 'test', transitions: 40, policy: policyFile });
    expect(report.heldout.mix).toBeUndefined();
    expect(report.success).toMatchObject({ real: expect.any(Number), predicted: expect.any(Number) });
    expect(report.done.real).toBeGreaterThan(0);
    expect(err.join('\n')).toMatch(/40 held-out transitions from \d+ test episodes of .*p\.dgp/);
    expect(await main(['experience', 'eval', '--env', 'shop', '--experience', 'knn', '--buffer', buffer, '--heldout', '40', '--policy', policyFile, '--mix', 'oracle=1'], io)).toBe(2);
    expect(err.at(-1)).toMatch(/with --policy the policy plays them/);
    expect(await main(['experience', 'eval', '--env', 'home', '--experience', 'knn', '--buffer', buffer, '--heldout', '40', '--policy', policyFile], io)).toBe(2);
    expect(err.at(-1)).toMatch(/is a policy for "shop", not "home"/);
  }, 120_000);
});
