/** The ways a policy can be trained; a tfjs-free module, so the page and the CLI can name them. */
import { ALGORITHMS, type AlgoName } from '../rl/config.ts';

/** The modes that learn by reinforcement: in the real environment, in the dream, or dream then real. */
export type RlMode = 'real' | 'dream' | 's2r';
/**
 * The offline baselines the paper compares with, trained on the replay buffer's real episodes with
 * no environment step: behaviour cloning of the successful ones, and DPO on success/failure pairs.
 */
export type OfflineMode = 'bc' | 'dpo';
export type TrainMode = RlMode | OfflineMode;
export const RL_MODES: readonly RlMode[] = ['real', 'dream', 's2r'];
export const OFFLINE_MODES: readonly OfflineMode[] = ['bc', 'dpo'];
export const TRAIN_MODES: readonly TrainMode[] = [...RL_MODES, ...OFFLINE_MODES];
export const isOfflineMode = (mode: TrainMode): mode is OfflineMode => (OFFLINE_MODES as readonly string[]).includes(mode);
/**
 * The loss a run optimises, as results and policy files record it: PPO or GRPO in the RL modes; an
 * offline mode's own loss (`bc`, `dpo`), so there it is the mode's name.
 */
export type TrainAlgo = AlgoName | OfflineMode;
export const TRAIN_ALGOS: readonly TrainAlgo[] = [...ALGORITHMS, ...OFFLINE_MODES];
/** Where an iteration collected: the real environment or the experience model. */
export type Phase = 'real' | 'dream';
/** Mode s2r's real budget when none is given: the paper's "under 10%" of 80K real transitions is 8K; 5K leaves a margin. */
export const DEFAULT_S2R_REAL_BUDGET = 5000;
/** Whether a run chooses its tasks with the curriculum unless told: the runs that dream do (the offline modes choose no task). */
export const CURRICULUM_BY_DEFAULT: Readonly<Record<TrainMode, boolean>> = { real: false, dream: true, s2r: true, bc: false, dpo: false };

/**
 * How a dream's experience model answers each step: `sample` draws the next state where the model is
 * unsure (which objects a room holds), `likeliest` always gives its likeliest prediction. Sampling is
 * what lets a searching policy find things in a dream: the likeliest room of a household holds none
 * of the task's objects (results/experience-model/fidelity/README.md).
 */
export type Imagine = 'sample' | 'likeliest';
export const IMAGINE_MODES: readonly Imagine[] = ['sample', 'likeliest'];
export const DEFAULT_IMAGINE: Imagine = 'likeliest';
