/**
 * The spec of training a policy (`train`), by mode: every default and bound, and only the settings
 * that mode reads, so a setting that would be ignored is refused. Where the run dreams, the chosen
 * experience model's settings join them (dream-spec.ts, from the registry). tfjs-free: the Train
 * view checks its form with the app's part.
 */
import * as v from 'valibot';
import { CURRICULUM_OUTCOMES, DEFAULT_CURRICULUM, VARIATION_SCOPES } from '../curriculum/curriculum.ts';
import { CURRICULUM_BY_DEFAULT, DEFAULT_IMAGINE, DEFAULT_S2R_REAL_BUDGET, IMAGINE_MODES, type RlMode } from '../train/modes.ts';
import { MAX_BETA, MAX_EPOCHS } from '../train/offline/config.ts';
import { DEFAULT_SEED, integerIn, MAX_EPISODE_STEPS, MAX_EPISODES, numberWithin, ON_OFF, oneOf, positiveUpTo } from './bounds-spec.ts';
import { K, K_SETTING } from './experience-models/retrieval-k.ts';
import { parseSpec, SEED } from './spec.ts';
import { DEFAULT_CHECKPOINT_SECONDS } from '../train/checkpoint.ts';

/** The longest interval between two checkpoints the app takes (a day: in effect, only the one when the budget is spent). */
export const MAX_CHECKPOINT_SECONDS = 86_400;

/** Transitions a budget may name at most: over a thousand times the paper's 80,000. */
export const MAX_BUDGET = 100_000_000;
/** Policy updates a run may be stopped after, or evaluate every, at most. */
export const MAX_ITERATIONS = 1_000_000;
export const MIN_LEARNING_RATE = 1e-7;
export const MAX_LEARNING_RATE = 1;
/** `--set`'s counts (epochs, minibatch size, parallel envs, …) at most. */
export const MAX_SETTING_COUNT = 1_000_000;

/** What every mode reads: the seed, the held-out evaluations, the learning rate. */
const everyMode = {
  seed: v.optional(SEED, DEFAULT_SEED),
  /** Evaluate every this many iterations (epochs in the offline modes); 0: only at the end. */
  evalEvery: v.optional(integerIn(0, MAX_ITERATIONS), 0),
  /** Held-out episodes per evaluation during training (needs evalEvery > 0); default the whole split. */
  evalEpisodes: v.optional(integerIn(1, MAX_EPISODES)),
  /** The split the evaluations play (the environment checks the name); default its test split. Settings are chosen on another. */
  evalSplit: v.optional(v.pipe(v.string(), v.nonEmpty('must name a split'))),
  /** Held-out episodes of the final evaluation; default the whole split. */
  finalEvalEpisodes: v.optional(integerIn(1, MAX_EPISODES)),
  /** Default: the algorithm's (and the environment's) setting, or the offline modes' own. */
  learningRate: v.optional(numberWithin(MIN_LEARNING_RATE, MAX_LEARNING_RATE)),
};

export const common = (mode: RlMode) => ({
  ...everyMode,
  /** Stop after this many updates even if budget is left; 0 evaluates the policy the run starts from (the untrained baseline). */
  iterations: v.optional(integerIn(0, MAX_ITERATIONS)),
  /** Step limit of training episodes; default the environment's own. */
  trainMaxSteps: v.optional(integerIn(1, MAX_EPISODE_STEPS)),
  /** On by default where the run dreams. */
  curriculum: v.optional(oneOf(ON_OFF), CURRICULUM_BY_DEFAULT[mode] ? 'on' : 'off'),
  /** The curriculum's largest share of generated tasks (λ). */
  lambda: v.optional(numberWithin(0, 1), DEFAULT_CURRICULUM.lambda),
  /** The curriculum's share of seed-task slots kept for tasks never attempted. */
  explorationFloor: v.optional(numberWithin(0, 1), DEFAULT_CURRICULUM.explorationFloor),
  /** What the curriculum's outcome variance is computed over. */
  curriculumOutcome: v.optional(oneOf(CURRICULUM_OUTCOMES), DEFAULT_CURRICULUM.outcome),
  /** Which variations the curriculum's generator may make. */
  variations: v.optional(oneOf(VARIATION_SCOPES), DEFAULT_CURRICULUM.variations),
});

export const dreaming = (mode: 'dream' | 's2r') => ({
  syntheticBudget: integerIn(1, MAX_BUDGET),
  /** The replay buffer file retrieval reads (required; its own message says how to make one). */
  buffer: v.optional(v.string()),
  /** off: the "without reasoning" ablation. */
  reasoning: v.optional(oneOf(ON_OFF), 'on'),
  /** Whether the model draws its next states or gives its likeliest (see `Imagine`). */
  imagine: v.optional(oneOf(IMAGINE_MODES), DEFAULT_IMAGINE),
  realBudget:
    mode === 'dream'
      ? v.optional(v.literal(0, 'must be 0 in mode dream (mode s2r adds real training)'), 0)
      : v.optional(integerIn(1, MAX_BUDGET), DEFAULT_S2R_REAL_BUDGET),
});

/** The offline modes: no budget of transitions (they take none), epochs over the buffer's episodes instead. */
const offline = {
  ...everyMode,
  /** The replay buffer file whose real episodes the run trains on (required; its own message says how to make one). */
  buffer: v.optional(v.string()),
  /** Passes over the data; default the environment's (its spec's `training.offline`), else the mode's (OFFLINE_DEFAULTS). */
  epochs: v.optional(integerIn(1, MAX_EPOCHS)),
  /** Evaluate only on the split's tasks the buffer holds no episode of (shop's train tasks held out: validation data). */
  evalUnseen: v.optional(v.boolean(), false),
};

/** The modes that do not dream; dream and s2r add the experience model's settings (dream-spec.ts trainSpec). */
export const TRAIN_SPECS = {
  /** Real transitions only: no experience model, no buffer. */
  real: v.strictObject({ ...common('real'), realBudget: integerIn(1, MAX_BUDGET) }),
  /** Behaviour cloning of the buffer's successful episodes. */
  bc: v.strictObject(offline),
  /** DPO on the buffer's success/failure pairs, with β. */
  dpo: v.strictObject({ ...offline, beta: v.optional(positiveUpTo(MAX_BETA)) }),
};

/**
 * The Train view's run, as its form sends it (modes real and dream; a dream run uses the experience
 * model chosen in the Experience view, whose settings the trainer worker checks by its registry
 * entry, and its `k`): the same bounds and defaults as the CLI's, under the form's labels.
 */
const appRun = {
  seed: v.optional(SEED, DEFAULT_SEED),
  evalEvery: v.optional(integerIn(0, MAX_ITERATIONS), 0),
  evalEpisodes: v.optional(integerIn(1, MAX_EPISODES)),
  finalEvalEpisodes: v.optional(integerIn(1, MAX_EPISODES)),
  lambda: v.optional(numberWithin(0, 1), DEFAULT_CURRICULUM.lambda),
  explorationFloor: v.optional(numberWithin(0, 1), DEFAULT_CURRICULUM.explorationFloor),
  /** How often the run saves itself to this browser, so a reload or a crash does not lose it (0: after every iteration). */
  checkpointEverySeconds: v.optional(numberWithin(0, MAX_CHECKPOINT_SECONDS), DEFAULT_CHECKPOINT_SECONDS),
};
export const APP_TRAIN_SPECS = {
  real: v.strictObject({ ...appRun, realBudget: integerIn(1, MAX_BUDGET) }),
  dream: v.strictObject({ ...appRun, syntheticBudget: integerIn(1, MAX_BUDGET), k: K }),
};

/** The Train view's names for the fields, so a refusal names the field a person sees. */
export const APP_TRAIN_LABELS: Readonly<Record<string, string>> = {
  seed: 'Seed',
  evalEvery: 'Evaluate every N iterations',
  evalEpisodes: 'Evaluation episodes',
  finalEvalEpisodes: 'Final evaluation episodes',
  lambda: 'λ (largest share of generated tasks)',
  explorationFloor: 'The exploration share',
  realBudget: 'Real-transition budget',
  syntheticBudget: 'Synthetic-transition budget',
  k: K_SETTING.label,
  checkpointEverySeconds: 'Save the run every N seconds',
};

/** The Train view's numbers, as its form holds them and as the trainer worker receives them. */
export interface AppTrainRun {
  seed?: number | undefined;
  evalEvery?: number | undefined;
  evalEpisodes?: number | undefined;
  finalEvalEpisodes?: number | undefined;
  /** Only when the curriculum is on. */
  curriculum?: { lambda: number; explorationFloor?: number | undefined } | null | undefined;
  realBudget?: number | undefined;
  syntheticBudget?: number | undefined;
  k?: number | undefined;
  checkpointEverySeconds?: number | undefined;
}

/**
 * The run checked by the Train view's spec in `mode`, defaults filled in; a UsageError naming the
 * form's field otherwise. The form checks with it before Start, and the trainer worker again.
 */
export function checkAppTrainRun(mode: 'real', run: AppTrainRun): v.InferOutput<typeof APP_TRAIN_SPECS.real>;
export function checkAppTrainRun(mode: 'dream', run: AppTrainRun): v.InferOutput<typeof APP_TRAIN_SPECS.dream>;
export function checkAppTrainRun(mode: 'real' | 'dream', run: AppTrainRun) {
  const given = (fields: Record<string, unknown>) => Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
  const common = given({
    seed: run.seed,
    evalEvery: run.evalEvery,
    evalEpisodes: run.evalEpisodes,
    finalEvalEpisodes: run.finalEvalEpisodes,
    lambda: run.curriculum?.lambda,
    explorationFloor: run.curriculum?.explorationFloor,
    checkpointEverySeconds: run.checkpointEverySeconds,
  });
  const label = (field: string) => APP_TRAIN_LABELS[field] ?? field;
  return mode === 'dream'
    ? parseSpec(APP_TRAIN_SPECS.dream, { ...common, ...given({ syntheticBudget: run.syntheticBudget, k: run.k }) }, label)
    : parseSpec(APP_TRAIN_SPECS.real, { ...common, realBudget: run.realBudget }, label);
}
