import { beforeAll, describe, expect, it } from 'vitest';
import { KnnExperienceModel } from '../../../src/experience/knn.ts';
import { encodePolicyFile } from '../../../src/policy/dgp.ts';
import { useBackend } from '../../../src/platform/tf.ts';
import { checkSameRun, CheckpointError, decodeCheckpoint, encodeCheckpoint } from '../../../src/train/checkpoint.ts';
import { TrainControl } from '../../../src/train/control.ts';
import type { IterationMetrics } from '../../../src/train/metrics.ts';
import { Trainer, type TrainOptions, type TrainResult } from '../../../src/train/trainer.ts';
import { seededBuffer } from '../experience/fixtures.ts';

const SMALL_POLICY = { hidden: 16, featurizer: { stateBuckets: 256, actionBuckets: 128, historyWindow: 2, maxElements: 30 } };

/** Sim-to-real with the curriculum: every kind of state a checkpoint keeps (dream world, both phases, generated tasks). */
async function s2rOptions(): Promise<TrainOptions> {
  const buffer = await seededBuffer('shop', 40, 4);
  return {
    env: 'shop',
    mode: 's2r',
    algo: 'grpo',
    realBudget: 300,
    seed: 5,
    backend: 'cpu',
    maxDifficulty: 4,
    finalEvalEpisodes: 12,
    evalEvery: 3,
    evalEpisodes: 6,
    dream: { model: new KnnExperienceModel(), buffer, k: 3, syntheticBudget: 300, offlineTransitions: await buffer.store.count({ source: 'real' }), imagine: 'sample' },
    curriculum: { config: { lambda: 0.5 } },
    policy: SMALL_POLICY,
    algoConfig: { tasksPerIteration: 4, groupSize: 4, parallelEnvs: 16, minibatchSize: 64, epochs: 1 },
  };
}

/** What must be equal between a resumed run and an uninterrupted one: everything but the clock. */
function timeless(history: readonly IterationMetrics[]) {
  return history.map(({ wallSeconds: _w, samplesPerSecond: _s, ...rest }) => rest);
}

function sameRun(resumed: TrainResult, whole: TrainResult): void {
  expect(resumed.eval?.actionsDigest).toBe(whole.eval?.actionsDigest);
  expect(timeless(resumed.history)).toEqual(timeless(whole.history));
  expect(resumed.realTransitions).toBe(whole.realTransitions);
  expect(resumed.syntheticTransitions).toBe(whole.syntheticTransitions);
  expect(resumed.iterations).toBe(whole.iterations);
  expect(resumed.realPhaseFrom).toBe(whole.realPhaseFrom);
  expect(resumed.curriculum).toEqual(whole.curriculum);
  expect(resumed.dream?.synthetic).toEqual(whole.dream?.synthetic);
  expect(resumed.dream?.model).toEqual(whole.dream?.model);
  expect(resumed.dream?.realResets).toBe(whole.dream?.realResets);
}

describe('training checkpoints', () => {
  beforeAll(async () => {
    await useBackend(['cpu']);
  });

  it('a run stopped mid-way and resumed from its last checkpoint ends exactly where the uninterrupted run ends', async () => {
    const whole = await new Trainer(await s2rOptions()).run();
    expect(whole.realPhaseFrom).toBeGreaterThan(1);

    // The same run, checkpointing after every iteration and stopped during its real phase.
    const saved: Uint8Array[] = [];
    const control = new TrainControl();
    const stopAt = (whole.realPhaseFrom as number) + 1;
    const interrupted = await new Trainer(await s2rOptions()).run({
      control,
      checkpoint: { everySeconds: 0, save: async (c) => void saved.push(encodeCheckpoint(c)) },
      onIteration: (m) => {
        if (m.iteration === stopAt) control.stop();
      },
    });
    expect(interrupted.stopped).toBe(true);
    // No checkpoint of the stopped iteration: it may have been cut short.
    const progress = saved.map((bytes) => decodeCheckpoint(bytes).progress);
    expect(progress.map((p) => p.iteration)).toEqual(Array.from({ length: stopAt - 1 }, (_, i) => i + 1));

    // Resumed from a checkpoint in the dream phase and from the last one (in the real phase).
    const inDream = progress.findIndex((p) => p.phaseIndex === 0 && p.iteration === 2);
    const last = saved.length - 1;
    expect(progress[last]?.phaseIndex).toBe(1);
    for (const index of [inDream, last]) {
      const trainer = new Trainer(await s2rOptions());
      trainer.resumeFrom(decodeCheckpoint(saved[index] as Uint8Array));
      sameRun(await trainer.run(), whole);
    }
  });

  it('refuses a checkpoint of another run, naming the settings that differ', async () => {
    const saved: Uint8Array[] = [];
    const options = await s2rOptions();
    await new Trainer({ ...options, maxIterations: 1 }).run({ checkpoint: { everySeconds: 60, save: async (c) => void saved.push(encodeCheckpoint(c)) } });
    expect(saved).toHaveLength(1); // the one taken when the loop ends
    const checkpoint = decodeCheckpoint(saved[0] as Uint8Array);
    const other = new Trainer({ ...(await s2rOptions()), seed: 6, maxIterations: 1 });
    expect(() => other.resumeFrom(checkpoint)).toThrow(CheckpointError);
    expect(() => other.resumeFrom(checkpoint)).toThrow(/seed is 5 there, 6 here/);
  });

  it('names the setting that differs inside a settings object, not the whole object cut short', () => {
    const config = { learningRate: 0.001, clipRatio: 0.2, entropyCoef: 0.01, valueCoef: 0.5, gamma: 0.99, lambda: 0.95, minibatchSize: 64, epochs: 4 };
    const check = () => checkSameRun({ seed: 1, config }, { seed: 1, config: { ...config, minibatchSize: 128 } });
    expect(check).toThrow(CheckpointError);
    expect(check).toThrow(/of another run: config\.minibatchSize is 64 there, 128 here\./);
    expect(() => checkSameRun({ seed: 1, config }, { seed: 1, config: { ...config } })).not.toThrow();
  });

  it('refuses damaged bytes and other DreamGym files by name', async () => {
    const saved: Uint8Array[] = [];
    await new Trainer({ ...(await s2rOptions()), maxIterations: 1 }).run({ checkpoint: { everySeconds: 0, save: async (c) => void saved.push(encodeCheckpoint(c)) } });
    const bytes = saved[0] as Uint8Array;
    expect(() => decodeCheckpoint(bytes.slice(0, bytes.length - 10))).toThrow(/truncated|length/);
    const flipped = bytes.slice();
    flipped[flipped.length - 1] = (flipped[flipped.length - 1] as number) ^ 0xff;
    expect(() => decodeCheckpoint(flipped)).toThrow(/checksum/);
    const policy = encodePolicyFile(
      { env: 'shop', algorithm: 'grpo', backend: 'cpu', architecture: {}, featurizer: {}, training: {}, evaluation: null, createdAt: new Date().toISOString() },
      [{ name: 'w', shape: [1], data: new Float32Array([1]) }],
    );
    expect(() => decodeCheckpoint(policy)).toThrow(/policy file \(\.dgp\), not a training checkpoint/);
    // A header that parses but whose state is out of shape.
    const checkpoint = decodeCheckpoint(bytes);
    const broken = encodeCheckpoint({ ...checkpoint, progress: { ...checkpoint.progress, rngs: { ...checkpoint.progress.rngs, act: [1, 2, 3] as unknown as [number, number, number, number] } } });
    expect(() => decodeCheckpoint(broken)).toThrow(/rngs\.act/);
  });
});
