/**
 * The experience model's contract (docs/architecture.md, "One dream step"): given the task, the history,
 * the current abstract state, the chosen action and a few retrieved transitions, predict what
 * happens. Every backend (kNN, an LLM over WebLLM or HTTP, the neural model) implements
 * `ExperienceModel`, and `SyntheticEnv` turns any of them into an `Env`.
 */
import type { Observation, Task, Transition } from '../core/types.ts';

export interface HistoryStep {
  state: Observation;
  action: string;
}

export interface ExperienceInput {
  task: Task;
  /** Earlier steps of this episode, oldest first (not including the current one). */
  history: HistoryStep[];
  state: Observation;
  action: string;
  /** The top-k retrieved transitions, most similar first. */
  examples: Transition[];
  /**
   * Identifies the episode, so a model that frames an episode as one multi-round chat (WebLLM's KV
   * cache) can extend the conversation it already has instead of re-sending the history.
   */
  episodeId?: string;
}

export interface ExperiencePrediction {
  reasoning: string;
  next: Observation;
  reward: number;
  done: boolean;
  /**
   * False when no valid prediction could be had (unparseable output after bounded retries, an
   * action outside the admissible list): the prediction is then the failure state, reward 0.
   */
  valid: boolean;
  /** Why `valid` is false, for the metrics and the Experience view. */
  problem?: string;
  /** The model's last reply when it could not be used (its start), so a person sees what it said. */
  reply?: string;
  /**
   * An ending the model itself calls a success or not: a neural model compares its reward with the
   * success reward its fit calibrated (success.ts). Absent: the reward decides (`isPredictedSuccess`).
   */
  won?: boolean;
}

/** Running counters every model keeps; the trainer and `experience eval` report them. */
export interface ExperienceStats {
  predictions: number;
  /** Predictions that ended in the failure state because the output could not be used. */
  invalidOutputs: number;
  /** Extra model calls spent on retries after unusable output. */
  retries: number;
  /** Outputs that were usable only after repair (JSON inside prose, fences, action spelling). */
  repaired: number;
  /** Tokens of the prompts as sent (the whole conversation, for a multi-round chat). */
  promptTokens: number;
  /** Tokens that had to be prefilled: the prompt minus what the model's KV cache already held. */
  prefillTokens: number;
  completionTokens: number;
  /** Sum of the backend's reported rates, with how many reports they came from. */
  prefillTokensPerSecondSum: number;
  decodeTokensPerSecondSum: number;
  rateReports: number;
  /** Successes an imagining model did not predict for want of an example that vouches for them (the neural model). */
  unsupportedSuccesses: number;
}

export function emptyStats(): ExperienceStats {
  return {
    predictions: 0,
    invalidOutputs: 0,
    retries: 0,
    repaired: 0,
    promptTokens: 0,
    prefillTokens: 0,
    completionTokens: 0,
    prefillTokensPerSecondSum: 0,
    decodeTokensPerSecondSum: 0,
    rateReports: 0,
    unsupportedSuccesses: 0,
  };
}

export interface PredictOptions {
  signal?: AbortSignal;
  /**
   * Imagine rather than predict: where the model is unsure which of several next states follows, it
   * draws one (in [0, 1), like Math.random) instead of taking the likeliest. A dream wants the real
   * environment's variety; a fidelity score wants the likeliest. Models that cannot draw ignore it.
   */
  random?: () => number;
}

export interface ExperienceModel {
  /** Shown to the user and recorded in results: `knn`, `llm:webllm/Qwen2.5-0.5B…`, `llm:http/…`. */
  readonly name: string;
  /** `signal` stops the model's requests in flight (an LLM's); the call then rejects. */
  predict(batch: readonly ExperienceInput[], options?: PredictOptions): Promise<ExperiencePrediction[]>;
  stats(): ExperienceStats;
  /** Forget per-episode state (conversations); called when an episode ends. */
  endEpisode?(episodeId: string): void;
}

/** The state an episode ends in when the model's output could not be used or the action was not admissible. */
export function failureObservation(reason: string): Observation {
  return { text: `status: failure\nreason: ${reason.replace(/\s+/g, ' ').slice(0, 200)}`, actions: [] };
}

/** A reply shown with an unusable prediction is cut to this many characters: enough to see what went wrong. */
export const MAX_SHOWN_REPLY = 600;

export function failurePrediction(problem: string, reply?: string): ExperiencePrediction {
  const shown = reply === undefined ? {} : { reply: reply.length > MAX_SHOWN_REPLY ? `${reply.slice(0, MAX_SHOWN_REPLY)}…` : reply };
  return { reasoning: '', next: failureObservation(problem), reward: 0, done: true, valid: false, problem, ...shown };
}
