/**
 * "Adding an experience model is one file and one registry line": a fifth model, declared here and
 * nowhere else (its entry below is the "file", `registerExperienceModel` the "line"), gets its CLI
 * flag and usage, dreams through `train --mode dream` and `experience eval`, is refused where its
 * setting is out of bounds (by its own flag), and is offered by the app's model picker (the
 * experience worker's list) and stepped there, and the Train view's dream (the trainer worker)
 * trains with it as with kNN: the same entry points as the built-in four.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main, usage } from '../../../src/cli/main.ts';
import { emptyStats, type ExperienceInput, type ExperienceModel, type ExperiencePrediction } from '../../../src/experience/types.ts';
import { numberWithin } from '../../../src/jobs/bounds-spec.ts';
import type { ExperienceModelEntry } from '../../../src/jobs/experience-models/entry.ts';
import { registerExperienceModel } from '../../../src/jobs/experience-models/registry.ts';
import { useBackend } from '../../../src/platform/tf.ts';
import { MemoryReplayStore } from '../../../src/replay/memory-store.ts';
import { ReplayBuffer } from '../../../src/replay/retrieval.ts';
import { ExperienceService } from '../../../src/services/experience-service.ts';
import { MemoryNeuralModelStore } from '../../../src/services/neural-model-store.ts';
import { TrainerService, type TrainRequest } from '../../../src/services/trainer-service.ts';
import { capture } from '../../cli-io.ts';
import { seededTransitions } from '../experience/fixtures.ts';

/** The fifth model: the state stays as it is, and every step is paid `reward` (an episode ends on a paid step). */
class EchoModel implements ExperienceModel {
  readonly name = 'echo';
  private predictions = 0;
  constructor(private readonly reward: number) {}
  async predict(batch: readonly ExperienceInput[]): Promise<ExperiencePrediction[]> {
    this.predictions += batch.length;
    return batch.map((input) => ({ reasoning: 'nothing changes', next: input.state, reward: this.reward, done: this.reward > 0, valid: true }));
  }
  stats() {
    return { ...emptyStats(), predictions: this.predictions };
  }
}

const echoEntry: ExperienceModelEntry = {
  kind: 'echo',
  label: 'Echo (a test model)',
  help: 'the state stays as it is; every step is paid the reward set',
  runsIn: ['node', 'worker'],
  settings: {
    reward: { flag: 'echo-reward', label: 'Reward of a step', help: 'what every step is paid (0–1)', value: 'R', input: 'number', schema: v.optional(numberWithin(0, 1), 0) },
  },
  build: async (settings) => new EchoModel(settings.reward as number),
};

async function cli(...argv: string[]): Promise<Record<string, unknown>> {
  const io = capture();
  const code = await main([...argv, '--json'], io);
  expect(code, io.stderr.join('\n')).toBe(0);
  return JSON.parse(io.stdout.at(-1) as string);
}

async function refused(...argv: string[]): Promise<string> {
  const io = capture();
  expect(await main(argv, io)).toBe(2);
  return io.stderr.join('\n');
}

describe('a fifth experience model registered in one line', () => {
  let unregister: () => void;
  const dir = mkdtempSync(path.join(tmpdir(), 'echo-'));
  const buffer = path.join(dir, 'shop.jsonl');
  beforeAll(async () => {
    unregister = registerExperienceModel(echoEntry);
    await useBackend(['cpu']);
  });
  afterAll(() => unregister());

  it('has its flag in the CLI usage, and its setting is bounded and named by that flag', async () => {
    expect(usage()).toContain('--experience <neural|knn|http|echo>');
    expect(usage()).toContain('[--echo-reward R] (echo)');
    expect(await cli('buffer', 'seed', '--env', 'shop', '--episodes', '30', '--seed', '1', '--out', buffer)).toMatchObject({ episodes: 30 });
    const dream = ['train', '--env', 'shop', '--mode', 'dream', '--algo', 'grpo', '--synthetic-budget', '100', '--buffer', buffer];
    expect(await refused(...dream, '--experience', 'echo', '--echo-reward', '2')).toMatch(/--echo-reward must be a number in \[0, 1\], got 2/);
    expect(await refused(...dream, '--experience', 'knn', '--echo-reward', '1')).toMatch(/--echo-reward does not apply with --experience knn/);
    expect(await refused(...dream, '--experience', 'echo', '--model', 'x.dgx')).toMatch(/--model goes with --experience neural \(a FILE\.dgx\) or http/);
  });

  it('dreams from the CLI (train --mode dream) and is measured by experience eval', async () => {
    const small = ['--seed', '1', '--backend', 'cpu', '--eval-every', '0', '--final-eval-episodes', '5', '--train-max-steps', '4', '--curriculum', 'off'];
    const run = await cli('train', '--env', 'shop', '--mode', 'dream', '--algo', 'grpo', '--experience', 'echo', '--echo-reward', '1', '--buffer', buffer, '--synthetic-budget', '120', ...small);
    expect(run).toMatchObject({ env: 'shop', mode: 'dream', realTransitions: 0, dream: { experience: 'echo', k: 3 }, eval: { episodes: 5 } });
    expect(run.syntheticTransitions).toBeGreaterThan(0);
    expect((run.dream as { model: { predictions: number } }).model.predictions).toBeGreaterThan(0);
    const fidelity = await cli('experience', 'eval', '--env', 'shop', '--experience', 'echo', '--buffer', buffer, '--heldout', '20', '--seed', '1', '--k', '0');
    expect(fidelity).toMatchObject({ env: 'shop', experience: 'echo', k: 0 });
  }, 120_000);

  it('is offered by the app’s model picker and steps there, and the Train view’s dream trains with it and with kNN', async () => {
    const replay = new MemoryReplayStore();
    await (await ReplayBuffer.open(replay)).add(await seededTransitions('shop', 12, 1));
    const experience = new ExperienceService({ openStore: async () => replay, backends: ['cpu'] });
    // The picker lists what the worker offers, in registry order, with the entry's label and settings.
    const offered = experience.experienceModels();
    expect(offered.map((m) => m.kind)).toEqual(['neural', 'knn', 'http', 'webllm', 'echo']);
    expect(offered.at(-1)).toMatchObject({ label: 'Echo (a test model)', settings: [{ field: 'reward', label: 'Reward of a step', input: 'number' }] });
    await expect(experience.chooseExperience({ kind: 'echo', settings: { reward: 7 } })).rejects.toThrow(/Reward of a step must be a number in \[0, 1\], got 7/);
    expect(await experience.chooseExperience({ kind: 'echo', settings: { reward: 1 } })).toMatchObject({ kind: 'echo', name: 'echo', predictsOnPage: false });
    const start = await experience.start('shop', 'test', 0);
    const step = await experience.step(start.observation.actions[0] as string);
    expect(step).toMatchObject({ experience: 'echo', predicted: { reward: 1, done: true } });

    const trainer = new TrainerService({ openReplayStore: async () => replay, openModelStore: async () => new MemoryNeuralModelStore() });
    await trainer.init(['cpu']);
    const request: TrainRequest = {
      env: 'shop', algo: 'grpo', mode: 'dream', realBudget: 0, syntheticBudget: 60, seed: 1, finalEvalEpisodes: 3, k: 2,
      algoConfig: { tasksPerIteration: 2, groupSize: 2, parallelEnvs: 4, minibatchSize: 16, epochs: 1 },
    };
    // No neural model is saved: the default choice says so; the models chosen in the app need none.
    await expect(trainer.train(request, () => {})).rejects.toThrow(/no neural experience model is fitted for shop/);
    for (const choice of [{ kind: 'knn' }, { kind: 'echo', settings: { reward: 1 } }]) {
      const result = await trainer.train({ ...request, experience: choice }, () => {});
      expect(result.dream).toMatchObject({ experience: choice.kind, k: 2 });
      expect(result.syntheticTransitions).toBeGreaterThan(0);
      expect(result.realTransitions).toBe(0);
    }
    await expect(trainer.train({ ...request, experience: { kind: 'webllm', settings: { modelId: 'm' } } }, () => {})).rejects.toThrow(/runs on the app's page, not in a worker of the app/);
  }, 120_000);
});
