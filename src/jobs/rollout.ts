/**
 * `rollout`: the one entry point that plays a policy on a split, for the CLI's `rollout`, the
 * benches and the test of a new environment. A scripted policy (oracle, random, …) plays seeded
 * episodes and reports the transcript digest; a saved `.dgp` policy is played greedily and reports
 * the actions digest training's own evaluation reports. The caller checks its flags with the job's
 * spec (rollout-spec.ts) and, for a saved policy, starts the tfjs backend first.
 */
import { UsageError } from '../core/errors.ts';
import { rollout as playScripted, type ScriptedPolicy, type RolloutSummary, type EpisodeRecord } from '../envs/episode.ts';
import type { EnvOptions, EnvSpec } from '../envs/spec.ts';
import type { PolicyFileHeader } from '../policy/dgp.ts';
import { importPolicy } from '../policy/policy-file.ts';
import type { Trajectory } from '../rl/rollout.ts';
import { evaluatePolicy, type EvalResult } from '../train/evaluate.ts';
import { DEFAULT_SCRIPTED_EPISODES } from './rollout-spec.ts';
import type { TraceRecorder } from './trace-recorder.ts';

/** What the rollout spec checked (rollout-spec.ts), defaults filled in. */
export interface RolloutSettings {
  split: string;
  /** Scripted: default DEFAULT_SCRIPTED_EPISODES. Saved policy: default every task of the split once, in order. */
  episodes?: number | undefined;
  seed: number;
  maxSteps?: number | undefined;
}

const envOptionsOf = (settings: RolloutSettings): EnvOptions => (settings.maxSteps === undefined ? {} : { maxSteps: settings.maxSteps });

/**
 * A scripted policy's seeded episodes: success, score, steps, invalid actions, env steps/s and the
 * transcript digest. With `trace`, its episodes are recorded into it too (trace-recorder.ts).
 */
export function rollout(
  spec: EnvSpec,
  policy: ScriptedPolicy,
  settings: RolloutSettings,
  hooks: { onEpisode?: (index: number, record: EpisodeRecord) => void; trace?: TraceRecorder } = {},
): Promise<RolloutSummary> {
  return playScripted({
    spec: hooks.trace ? hooks.trace.spec(spec) : spec,
    policy,
    split: settings.split,
    episodes: settings.episodes ?? DEFAULT_SCRIPTED_EPISODES,
    seed: settings.seed,
    envOptions: envOptionsOf(settings),
    ...(hooks.onEpisode ? { onEpisode: hooks.onEpisode } : {}),
  });
}

export interface PolicyFileRollout extends EvalResult {
  header: PolicyFileHeader;
  /** Wall-clock steps per second, the policy's forward passes included (unlike the scripted rollout's env-only rate). */
  stepsPerSec: number;
}

/**
 * A saved policy played greedily. Every check on the file (its format, its environment) runs
 * before any episode. Without `episodes` it plays the split in order, exactly as training's final
 * evaluation does, so the two report the same actions digest. With `trace`, its episodes and the
 * policy's probabilities are recorded into it too (trace-recorder.ts).
 */
export async function rolloutPolicyFile(
  spec: EnvSpec,
  bytes: Uint8Array,
  settings: RolloutSettings,
  hooks: { onEpisode?: (trajectory: Trajectory, index: number) => void; onNotice?: (text: string) => void; name?: string; transfer?: boolean; trace?: TraceRecorder } = {},
): Promise<PolicyFileRollout> {
  const { policy, header } = importPolicy(bytes);
  try {
    // A policy of another environment plays here only when asked to (zero-shot transfer): its features are the same words and relations.
    if (header.env !== spec.name && hooks.transfer !== true) throw new UsageError(`${hooks.name ?? 'the policy file'} is a policy for "${header.env}", not "${spec.name}" (add --transfer to play it here zero-shot)`);
    const started = performance.now();
    const result = await evaluatePolicy({
      spec: hooks.trace ? hooks.trace.spec(spec) : spec,
      policy: hooks.trace ? hooks.trace.actor(policy) : policy,
      split: settings.split,
      seed: settings.seed,
      ...(settings.episodes !== undefined ? { episodes: settings.episodes } : {}),
      envOptions: envOptionsOf(settings),
      ...(hooks.onEpisode ? { onEpisode: hooks.onEpisode } : {}),
      ...(hooks.onNotice ? { onNotice: hooks.onNotice } : {}),
    });
    const seconds = (performance.now() - started) / 1000;
    return { ...result, header, stepsPerSec: (result.meanSteps * result.episodes) / Math.max(seconds, 1e-9) };
  } finally {
    policy.dispose();
  }
}
