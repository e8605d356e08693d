/**
 * What the policy's featurizer makes of an environment, as one digest: scripted episodes (the noisy
 * expert's and the random agent's, seeded) are played, and every step's state and candidates are
 * featurized as the policy would see them. Two builds that give the same digest give every policy
 * the same inputs on those steps, so a change meant for one environment's actions (the page
 * relations) can be shown to leave the others' features byte for byte as they were.
 */
import { createHash } from 'node:crypto';
import { expandActions } from '../src/core/queries.ts';
import { rollout } from '../src/envs/episode.ts';
import type { EnvSpec } from '../src/envs/spec.ts';
import { Featurizer } from '../src/policy/featurizer.ts';

export interface FeatureDigest {
  env: string;
  steps: number;
  digest: string;
}

export async function featureDigest(spec: EnvSpec, options: { episodes: number; seed: number; featurizer?: Featurizer }): Promise<FeatureDigest> {
  const featurizer = options.featurizer ?? new Featurizer();
  const hash = createHash('sha256');
  let steps = 0;
  for (const policy of ['noisy', 'random'] as const) {
    await rollout({
      spec,
      policy,
      split: spec.testSplit,
      episodes: options.episodes,
      seed: options.seed,
      onEpisode: (_index, record) => {
        const history: string[] = [];
        let observation = record.first;
        for (const step of record.steps) {
          const candidates = expandActions(observation, record.task.instruction, spec.proposeQueries);
          hash.update(JSON.stringify(featurizer.featurize({ instruction: record.task.instruction, observation, history }, candidates)));
          steps++;
          history.push(step.action);
          observation = step.result.observation;
        }
      },
    });
  }
  return { env: spec.name, steps, digest: hash.digest('hex') };
}
