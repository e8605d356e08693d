import { beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '../../../src/platform/tf.ts';
import { DEFAULT_GRPO, DEFAULT_PPO } from '../../../src/rl/config.ts';
import { envSpec } from '../../../src/envs/registry.ts';
import { envOfflineSettings, envSettings as settingsOf } from '../../../src/train/env-settings.ts';
import { OFFLINE_DEFAULTS } from '../../../src/train/offline/config.ts';
import { Trainer, type TrainOptions } from '../../../src/train/trainer.ts';

const envSettings = (env: string, algo: 'ppo' | 'grpo', mode?: 'real' | 'dream' | 's2r') => settingsOf(envSpec(env), algo, mode);
const base = { mode: 'real', realBudget: 100, seed: 1, backend: 'cpu', policy: { hidden: 8 } } as const;
const trainer = (options: Pick<TrainOptions, 'env' | 'algo'> & Partial<TrainOptions>) => new Trainer({ ...base, ...options });

describe('per-environment settings', () => {
  beforeAll(async () => {
    await useBackend(['cpu']);
  });

  it('apply over the algorithm defaults, and only to their environment and algorithm', () => {
    const homeGrpo = trainer({ env: 'home', algo: 'grpo' }).config;
    expect(homeGrpo).toEqual({ ...DEFAULT_GRPO, ...envSettings('home', 'grpo') });
    expect(homeGrpo).toMatchObject({ lossAverage: 'trajectory', entropyCoef: 0 });
    expect(trainer({ env: 'shop', algo: 'grpo' }).config).toEqual(DEFAULT_GRPO);
    expect(trainer({ env: 'shop', algo: 'ppo' }).config).toMatchObject({ entropyCoef: 0.05, gaeLambda: 1, gamma: DEFAULT_PPO.gamma });
  });

  it('give way to the caller’s own settings', () => {
    const config = trainer({ env: 'home', algo: 'grpo', algoConfig: { lossAverage: 'step', learningRate: 3e-3 } }).config;
    expect(config).toMatchObject({ lossAverage: 'step', learningRate: 3e-3, entropyCoef: 0 });
  });

  it('add the dream settings in mode dream only', () => {
    expect(envSettings('shop', 'ppo', 'dream')).toEqual({ entropyCoef: 0.05, gaeLambda: 1, rolloutsPerTask: 8 });
    expect(envSettings('shop', 'ppo', 'real')).not.toHaveProperty('rolloutsPerTask');
    expect(envSettings('shop', 'ppo', 's2r')).not.toHaveProperty('rolloutsPerTask');
    expect(envSettings('shop', 'grpo', 'dream')).toEqual({});
    expect(envSettings('home', 'ppo', 'dream')).toEqual(envSettings('home', 'ppo', 'real'));
    expect(trainer({ env: 'shop', algo: 'ppo' }).config).toMatchObject({ rolloutsPerTask: 1 });
  });

  it('name both settings when a caller’s episode count does not fit the environment’s rollouts per task', () => {
    expect(() => new Trainer({ ...base, env: 'shop', algo: 'ppo', algoConfig: { rolloutsPerTask: 8, episodesPerIteration: 20 } })).toThrow(
      /divides episodesPerIteration \(20\), got 8; set the two together/,
    );
  });

  it('are empty for an environment that has none', () => {
    expect(settingsOf({ name: 'tiny' }, 'ppo')).toEqual({});
  });

  it('refuse a setting the algorithm does not have, or a value of the wrong kind, naming the environment', () => {
    expect(() => settingsOf({ name: 'tiny', training: { all: { ppo: { groupSize: 4 } } } }, 'ppo')).toThrow(/tiny's training settings give ppo "groupSize: 4"/);
    expect(() => settingsOf({ name: 'tiny', training: { all: { grpo: { entropyCoef: 'high' } } } }, 'grpo')).toThrow(/not one of its number settings/);
    expect(settingsOf({ name: 'tiny', training: { dream: { grpo: { groupSize: 4 } } } }, 'grpo', 'dream')).toEqual({ groupSize: 4 });
  });

  it('give the offline baselines their environment’s settings over the modes’ defaults, checked, and the caller’s over both', () => {
    const tiny = { name: 'tiny', training: { offline: { bc: { epochs: 3, learningRate: 1e-3 } } } };
    expect(envOfflineSettings(tiny, 'bc')).toEqual({ epochs: 3, learningRate: 1e-3 });
    expect(envOfflineSettings(tiny, 'dpo')).toEqual({});
    expect(() => envOfflineSettings({ name: 'tiny', training: { offline: { bc: { beta: 0.2 } } } }, 'bc')).toThrow(/tiny's training settings give bc "beta: 0.2", which is not one of its number settings/);
    expect(() => envOfflineSettings({ name: 'tiny', training: { offline: { dpo: { epochs: 'many' } } } }, 'dpo')).toThrow(/dpo "epochs: "many""/);
    for (const env of ['shop', 'home']) {
      for (const mode of ['bc', 'dpo'] as const) {
        // Whatever the environment gives is a setting the mode has.
        for (const key of Object.keys(envOfflineSettings(envSpec(env), mode))) expect(OFFLINE_DEFAULTS[mode]).toHaveProperty(key);
      }
    }
  });
});
