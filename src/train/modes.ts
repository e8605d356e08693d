/** The ways a policy can be trained; a tfjs-free module, so the page and the CLI can name them. */
export type TrainMode = 'real' | 'dream' | 's2r';
export const TRAIN_MODES: readonly TrainMode[] = ['real', 'dream', 's2r'];
/** Where an iteration collected: the real environment or the experience model. */
export type Phase = 'real' | 'dream';
/** Mode s2r's real budget when none is given: the paper's "under 10%" of 80K real transitions is 8K; 5K leaves a margin. */
export const DEFAULT_S2R_REAL_BUDGET = 5000;
/** Whether a run chooses its tasks with the curriculum unless told: the runs that dream do. */
export const CURRICULUM_BY_DEFAULT: Readonly<Record<TrainMode, boolean>> = { real: false, dream: true, s2r: true };
