/**
 * The contracts every part of the system shares. A newcomer should read this file first:
 * environments, experience models, policies and the trainer all speak these shapes.
 */

/** A task: one instruction for one environment. `goal` is known only to the real environment. */
export interface Task {
  id: string;
  env: string;
  /**
   * Empty where only the real environment can know it (a web page's instruction hook): its `reset`
   * then writes it here, on the object it was given, for the policy and the buffer to read.
   */
  instruction: string;
  /** Read and varied by the curriculum; each environment documents its scale. */
  difficulty: number;
  origin: 'seed' | 'generated';
  parentId?: string;
  goal?: unknown;
}

/** The abstract textual state (see `state.ts`) and the actions admissible in it. */
export interface Observation {
  text: string;
  actions: string[];
}

/**
 * What a person did in an env they act in (a live web page: the app's Play view, the CLI's
 * `record`), by the id of the element they acted on; the env maps it to the admissible action it means.
 */
export type PersonInput =
  | { kind: 'click'; id: number }
  | { kind: 'type'; id: number; text: string }
  | { kind: 'select'; id: number; option: string }
  | { kind: 'press'; id: number; key: string };

export interface StepInfo {
  /** False when the action was malformed or not admissible: reward 0, state unchanged. */
  valid: boolean;
  won: boolean;
  /** True when the episode ended because the step limit was reached. */
  truncated: boolean;
  /**
   * The real environments' teacher annotation: one or two plain sentences, from ground truth, on
   * what the action did and why the reward is what it is (at most 300 characters). Seeding stores
   * it as the transition's `reasoning`.
   */
  explanation?: string;
  [key: string]: unknown;
}

export interface StepResult {
  observation: Observation;
  reward: number;
  done: boolean;
  info: StepInfo;
}

/**
 * Async so that a real environment, a synthetic one (an experience model behind it) and a page in
 * an iframe share one interface. `step` never throws on a bad action; it reports `info.valid = false`.
 */
export interface Env {
  readonly name: string;
  reset(task: Task): Promise<Observation>;
  step(action: string): Promise<StepResult>;
  /**
   * The episode was ended from outside (the step limit, envs/step-limit.ts): let go of what it
   * holds (a synthetic env's chat). Optional; an env with nothing to let go of leaves it out.
   */
  truncate?(): void;
  /** The env is done with for good: let go of what it holds (a web env's page). Optional. */
  close?(): Promise<void>;
  /**
   * A picture of what the env shows now, as PNG bytes, for a person reading a trace (a web page's
   * screenshot); null where it shows nothing a picture adds. Optional, as Gymnasium's `render`.
   */
  screenshot?(): Promise<Uint8Array | null>;
  /**
   * What a person did next in the env, as the env's input (a web page a person acts in: the CLI's
   * `record`), or null once they closed it. Only envs a person acts in have it.
   */
  nextPersonInput?(): Promise<PersonInput | null>;
}

export interface Transition {
  id?: number;
  runId: string;
  taskId: string;
  /** The episode within the run (a run plays one task many times); retrieval can exclude it. */
  episodeId?: string;
  env: string;
  instruction: string;
  history: string[];
  state: Observation;
  action: string;
  reasoning?: string;
  next: Observation;
  reward: number;
  done: boolean;
  source: 'real' | 'synthetic';
  createdAt: number;
}

/**
 * A scripted or learned actor for one episode at a time. `reset` is called with the task and the
 * first observation; `act` returns one action string (which need not be admissible).
 */
export interface Agent {
  readonly name: string;
  reset(task: Task, first: Observation): void;
  act(observation: Observation): string;
}

/** The task splits an environment offers, by name, with their sizes. */
export interface SplitInfo {
  name: string;
  size: number;
}
