/**
 * What the experience worker and the page say to each other: the Experience view's choices, the
 * hand-stepped episode's steps, the neural model's status and fit progress. Types only, apart from
 * the service (after WebLLM's openai_api_protocols), so the page reads the protocol without
 * importing the service's code.
 */
import type { BackendProbe } from '../platform/backend-probe.ts';
import type { Observation, StepResult } from '../core/types.ts';
import type { EventFidelity, ScoreMeans, TransitionScore } from '../experience/fidelity.ts';
import type { FitProgress } from '../experience/neural/fit.ts';
import type { ExperienceInput, ExperiencePrediction } from '../experience/types.ts';
import type { ExperienceChoice } from '../jobs/experience-models/create.ts';
import type { ExperienceModelSummary } from '../jobs/experience-models/registry.ts';
import type { BackendName } from '../platform/tf.ts';
import type { PublicTask } from './env-session.ts';
import type { NeuralModelInfo } from './neural-model-store.ts';

export type { NeuralModelInfo } from './neural-model-store.ts';
export type { NeuralEpoch, NeuralLoss } from '../experience/neural/training-record.ts';

export type { ExperienceChoice, ExperienceModelSummary };

/**
 * The Experience view's choice of model: a kind of the experience-model registry
 * (jobs/experience-models/) and its settings, as the CLI names them (`endpoint`, `model`, `apiKey`,
 * `modelId`…). `neural` is the model fitted here for the episode's env (kNN answers where none is
 * fitted yet); `webllm` runs on the page, which predicts and hands its prediction back.
 */
export interface ExperienceViewChoice extends ExperienceChoice {
  /** A room server's participant id (sent as ROOM_CLIENT_HEADER), for a room joined from its link. */
  participant?: string;
}

export interface ExperienceInfo {
  kind: string;
  /** As results record it: `knn`, `llm:http/qwen2.5:0.5b@127.0.0.1:8080`, `llm:webllm/…`. */
  name: string;
  /** True when `step` cannot be used: the page predicts and calls `prepare` and `resolve`. */
  predictsOnPage: boolean;
  /**
   * An endpoint's time to answer one request before it is given up (with a message that says so);
   * absent where there is no such limit. The view shows it beside the seconds waited.
   */
  requestTimeoutMs?: number;
  /**
   * Kind `neural` asked about an env with no usable neural model: kNN answers there (`name` is
   * `knn`), and this says why.
   */
  fallback?: string;
}

export interface NeuralStatus {
  env: string;
  /** The tfjs backend of this worker; null until something needed it. */
  backend: BackendName | null;
  /** A fit is running (for any env). */
  fitting: boolean;
  model: NeuralModelInfo | null;
  /** How `auto` chose the backend: each candidate's probe figures (null when named, or not started yet). */
  backendProbe?: BackendProbe | null;
}

export interface NeuralFitRequest {
  env: string;
  /** Passes over the training transitions (1–100; default 6). */
  epochs?: number;
  batchSize?: number;
  /** Learn from at most this many real transitions. */
  maxTransitions?: number;
  /** Share of episodes held out for the per-epoch fidelity (default 0.1). */
  validationShare?: number;
  seed?: number;
  /** Fine-tune the model at this URL (the shipped pretrained web model, resolved by the page) instead of fitting from nothing. */
  init?: { url: string };
}

/** One progress report of a fit, as the page receives it. */
export type NeuralFitEvent = FitProgress & { env: string; backend: BackendName };

export interface NeuralFitSummary {
  model: NeuralModelInfo;
  backend: BackendName;
  seconds: number;
}

export interface BufferCounts {
  env: string;
  /** Real transitions of this env: what retrieval (and kNN) draws on. */
  real: number;
  synthetic: number;
}

export interface ExperienceStart {
  task: PublicTask;
  split: string;
  index: number;
  observation: Observation;
  buffer: BufferCounts;
  maxSteps: number;
}

/** A retrieved transition, shortened for the page (its state and next state as the prompt shows them). */
export interface ExampleSummary {
  id: number;
  runId: string;
  instruction: string;
  state: string;
  action: string;
  next: string;
  reward: number;
  done: boolean;
}

/** Running means over the scored steps so far (see `FidelityReport` for the measures). */
export interface FidelityMeter extends Omit<ScoreMeans, 'invalidRate'> {
  /** Steps scored: those whose action was admissible in the real state. */
  steps: number;
  /** Scored steps whose model output could not be used (the failure state). */
  invalidOutputs: number;
  /** Steps not scored: the action was not admissible, so no real transition compares. */
  unscored: number;
  /** The events a policy learns from, real against predicted: an episode ended in success; it ended. */
  success: EventFidelity;
  done: EventFidelity;
}

export interface ExperienceStep {
  /** 1-based number of this step in the episode. */
  index: number;
  /** The action as the person gave it. */
  action: string;
  /** The admissible action it named, spelled as the state lists it; null when it names none. */
  admissible: string | null;
  real: StepResult;
  predicted: ExperiencePrediction;
  examples: ExampleSummary[];
  /** Null for an action that was not admissible: the model was not asked, the step is not scored. */
  score: TransitionScore | null;
  meter: FidelityMeter;
  /** The experience model that answered (its name, as results record it). */
  experience: string;
}

export type PreparedStep =
  /** Ask the model with `input` (the task carries no goal), then hand its prediction to `resolve`. */
  | { kind: 'ask'; input: ExperienceInput; examples: ExampleSummary[] }
  /** Not admissible: the simulator's answer is the failure state without asking; `resolve` it as is. */
  | { kind: 'inadmissible'; prediction: ExperiencePrediction };
