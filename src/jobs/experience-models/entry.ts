/**
 * What one experience model is to every caller: its settings (defaults and bounds, the CLI flag and
 * the form field of each), where it can run, and how it is built. One file per model holds one
 * entry; registry.ts lists them. Everything else (the CLI's flags and usage, the job specs, the
 * app's model picker, the workers' choices) is derived from the entries, so adding a model is one
 * file and one registry line.
 */
import type { PredictionWorkers } from '../../experience/neural/prediction-pool.ts';
import type * as v from 'valibot';
import type { ExperienceModel } from '../../experience/types.ts';

/**
 * Where a model can answer: under Node (the CLI, the experiments), in a worker of the app (the
 * Experience view's and the Train view's dreams), or only on the page itself (WebLLM's engine).
 */
export type ExperienceRuntime = 'node' | 'worker' | 'page';

/** One setting of a model: a spec field, named `--flag` on the command line and `label` in a form. */
export interface ExperienceSetting {
  /** The CLI flag, without its dashes. */
  flag: string;
  /** The form's label, and the words a refusal uses in the app. */
  label: string;
  /** One line: what it sets. */
  help: string;
  /** What the usage text shows as its value (`FILE.dgx`, `URL`, `N`). */
  value: string;
  /** How a form takes it, and whether the CLI reads its text as a number. */
  input: 'text' | 'number' | 'secret' | 'file';
  /** Its valibot schema, with its default and bounds. */
  schema: v.GenericSchema;
  /** Where it is required: the words that say what to give, after "--experience KIND needs --flag VALUE". */
  requiredHint?: string;
  /**
   * A secret's environment variable (input `secret`): the CLI reads it when neither `--flag` nor
   * `--flag-file FILE` gives the value, so that the secret need not be on the command line, where
   * any user's `ps` shows it.
   */
  env?: string;
}

/** What a caller lends a model's `build`: what only it can open or knows. */
export interface BuildContext {
  /** Where the model runs now. */
  runtime: ExperienceRuntime;
  /** The environment the model will simulate: a model made for another is refused. */
  env?: string | undefined;
  /**
   * The bytes of a file a setting names (the CLI reads the path; the trainer worker the model this
   * browser keeps for `env`). `setting` is the setting's field name, for the message.
   */
  readFile?: ((path: string | undefined, setting: string) => Promise<Uint8Array>) | undefined;
  /** A person waits on each step (the Experience view): one request at a time, a short retry ladder. */
  interactive?: boolean | undefined;
  /** The fetch an endpoint is called with (tests, the page's). */
  fetch?: typeof fetch | undefined;
  /** Sent with every request (a room's participant id). */
  headers?: Readonly<Record<string, string>> | undefined;
  /** A prompt's length in tokens, where the model reports it. */
  countTokens?: ((text: string) => number) | undefined;
  /**
   * Threads a neural model may predict on beside the caller's (experience/neural/prediction-pool.ts):
   * the platform's way to start one, and how many by default; absent, it predicts on the caller's alone.
   */
  predictionWorkers?: PredictionWorkers | undefined;
}

/** An experience model's entry in the registry. */
export interface ExperienceModelEntry {
  /** The one name the CLI (`--experience`), the app, the specs and the results use. */
  kind: string;
  /** The app's model picker shows these. */
  label: string;
  help: string;
  /** Other names the CLI accepts for it (older ones). */
  aliases?: readonly string[];
  runsIn: readonly ExperienceRuntime[];
  /** Its settings by spec field; `k` (retrieved examples) is every model's and is not listed here. */
  settings: Readonly<Record<string, ExperienceSetting>>;
  /**
   * The model, from its checked settings (defaults filled in). Absent where the model is built by
   * the page alone (WebLLM: app/experience/webllm.ts), which no job can do.
   */
  build?: (settings: Readonly<Record<string, unknown>>, context: BuildContext) => Promise<ExperienceModel>;
}
