/**
 * `evaluateFidelity`: the one entry point that measures an experience model on held-out real
 * transitions, for the CLI's `experience eval`. The held-out transitions are played fresh in the
 * real environment on its held-out split, so none of them is in the buffer the model retrieves
 * from: by scripted agents (the buffer's way), or on-policy, by a policy's own greedy episodes (the
 * steps a dream run will ask the model about). Each is predicted from its real state (teacher
 * forcing) with `k` examples retrieved from the buffer's real transitions.
 */
import { matchKey } from '../core/actions.ts';
import { DreamGymError, UsageError } from '../core/errors.ts';
import type { EnvSpec } from '../envs/spec.ts';
import type { Transition } from '../core/types.ts';
import { recordingsOf, recordingSpec, type RecordedEpisode } from '../envs/recorded-episodes.ts';
import { heldoutTransitions, measureFidelity, type HeldoutPlay, scoredStep, type FidelityReport, type HeldoutTransition, type ScoredStep, type TransitionScore } from '../experience/fidelity.ts';
import type { Policy } from '../policy/policy.ts';
import type { Trajectory } from '../rl/rollout.ts';
import { evaluatePolicy } from '../train/evaluate.ts';
import { promptTokenStats } from '../experience/tokens.ts';
import type { ExperienceModel, ExperiencePrediction } from '../experience/types.ts';
import type { ReplayBuffer } from '../replay/retrieval.ts';
import { EnvFailureTally, parseMix, type EnvFailures, type FirstEnvError } from '../replay/seed.ts';
import { offlineRealTransitions, type OfflineDataSource } from './offline-data.ts';

/** What the eval spec checked (eval-spec.ts), defaults filled in. */
export interface FidelitySettings {
  heldout: number;
  mix: string;
  seed: number;
  k: number;
  /** The split the held-out episodes are played on, one of the env's (default its test split). */
  split?: string | undefined;
  /** Score only the held-out steps that take this action (e.g. click[Buy Now]). */
  onlyAction?: string | undefined;
}

/** `envErrors`: held-out episodes the environment ended (a page that stopped answering), left out of `episodes` and of the scored steps; `retried`: plays a failing page ended that were played again. */
export interface FidelityResult extends EnvFailures {
  report: FidelityReport;
  /** Real transitions of the env the model retrieved from. */
  offlineTransitions: number;
  /** The split the held-out episodes were played on. */
  split: string;
  /** Held-out episodes played, and their transitions before `onlyAction` kept some. */
  episodes: number;
  played: number;
  /** Transitions scored. */
  scored: number;
  /** Every scored step, in the order played (`experience eval --steps`). */
  steps: ScoredStep[];
  /** The prompt each prediction would cost an LLM (llama-3 tokens, single framing). */
  promptTokens: { mean: number; p95: number; max: number };
}

/**
 * `count` real transitions from a policy's greedy episodes on the held-out split (a seeded sample
 * of its tasks), each with the states of its history, as the model is asked in a dream. The states
 * are recorded as the episodes are played (recorded-episodes.ts), not played again afterwards.
 */
export async function onPolicyTransitions(spec: EnvSpec, policy: Policy, count: number, seed: number, split = spec.testSplit): Promise<HeldoutPlay> {
  // A seeded sample of the split's tasks, whose first n are the same for every n: play a few
  // episodes, then as many again until they hold `count` steps (a policy's episodes run long),
  // each round playing only the sample's tasks not yet played.
  const played: Trajectory[] = [];
  const recording = recordingSpec(spec);
  const failures = new EnvFailureTally();
  for (let episodes = Math.min(count, 16), skip = 0; ; skip = episodes, episodes = Math.min(count, episodes * 2)) {
    // By the task's place in the sample, not by when its episode ended (lanes finish out of order).
    const result = await evaluatePolicy({ spec: recording.spec, policy, split, episodes, skip, seed, onEpisode: (t, index) => (played[index] = t) });
    failures.addRetried(result.retried ?? 0);
    // Every episode has at least one step, so `count` episodes are always enough.
    if (played.reduce((a, t) => a + (t.envError === undefined ? t.steps.length : 0), 0) >= count || episodes === count) break;
  }
  const recordings = recordingsOf(recording.episodes, played.filter((t) => t.envError === undefined));
  const heldout: HeldoutTransition[] = [];
  let episodes = 0;
  for (const trajectory of played) {
    if (heldout.length >= count) break;
    if (failures.count(trajectory)) continue;
    const { task, steps } = recordings[episodes++] as RecordedEpisode;
    for (const { state, action, result, history } of steps) {
      if (heldout.length >= count) break;
      const transition: Transition = {
        runId: 'on-policy', taskId: task.id, env: spec.name, instruction: task.instruction, history: history.map((h) => h.action),
        state, action, next: result.observation, reward: result.reward, done: result.done, source: 'real', createdAt: 0,
      };
      heldout.push({ transition, task, history });
    }
  }
  return { heldout, episodes, ...failures.summary() };
}

export async function evaluateFidelity(
  spec: EnvSpec,
  settings: FidelitySettings,
  options: {
    model: ExperienceModel;
    buffer: ReplayBuffer;
    source: OfflineDataSource;
    /** On-policy: the held-out transitions are this policy's own greedy steps (the mix is not read). */
    policy?: Policy;
    /** Before the first prediction: what will be measured. */
    onStart?: (plan: { scored: number; split: string; episodes: number; envErrors: number; firstEnvError?: FirstEnvError | undefined; offlineTransitions: number }) => void;
    onProgress?: (done: number, total: number) => void;
  },
): Promise<FidelityResult> {
  const { model, buffer } = options;
  const mix = parseMix(settings.mix);
  const offlineTransitions = await offlineRealTransitions(buffer.store, spec.name, options.source);
  const split = settings.split ?? spec.testSplit;
  const played = options.policy ? await onPolicyTransitions(spec, options.policy, settings.heldout, settings.seed, split) : await heldoutTransitions(spec, settings.heldout, mix, settings.seed, split);
  const only = settings.onlyAction;
  if (played.heldout.length === 0) throw new DreamGymError('env-failed', `the environment failed in every one of the ${played.envErrors} held-out episodes played (pages that stopped answering or could not be read; first: task ${played.firstEnvError?.taskId}, ${played.firstEnvError?.error}): no real transition to score`);
  const heldout = only === undefined ? played.heldout : played.heldout.filter((h) => matchKey(h.transition.action) === matchKey(only));
  if (heldout.length === 0) throw new UsageError(`none of the ${played.heldout.length} held-out transitions is "${only}"; play more with --heldout or another --mix`);
  options.onStart?.({ scored: heldout.length, split, episodes: played.episodes, envErrors: played.envErrors, firstEnvError: played.firstEnvError, offlineTransitions });
  const { report, inputs, predictions, scores } = await measureFidelity({ model, buffer, k: settings.k, heldout, ...(options.onProgress ? { onProgress: options.onProgress } : {}) });
  const steps = heldout.map((h, i) => scoredStep(h, predictions[i] as ExperiencePrediction, scores[i] as TransitionScore));
  const { heldout: playedSteps, ...episodesAndFailures } = played;
  return { report, steps, offlineTransitions, split, ...episodesAndFailures, played: playedSteps.length, scored: heldout.length, promptTokens: promptTokenStats(inputs) };
}
