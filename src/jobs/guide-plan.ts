/**
 * The guided first run: DreamGym's loop on the shop, end to end, with the app's own entry points
 * (the Buffer view's seeding, the Experience view's fit, the Train view's runs, the Evaluate and
 * Experience views' stepping). Its settings live here, once, for the page and for `bench guide`.
 * tfjs-free: the page imports it.
 *
 * The budgets are sized so the whole run takes about a minute in a browser on a 2-core laptop
 * (`npm run bench -- guide` measures each phase: GUIDE_MEASURED), and so that the comparison is
 * fair: the real-mode policy gets as many real steps as the dream policy got synthetic ones. The
 * phases run in two lanes, one per trainer worker (GUIDE_LANES), so the real-mode run and the
 * untrained policy's evaluation take no time of their own on a machine of two cores or more.
 */
import { CURRICULUM_BY_DEFAULT } from '../train/modes.ts';

/** What one length of the guided run plays: its budgets, for the page, `bench guide` and the tests. */
export interface GuidePlan {
  env: 'shop';
  seed: number;
  seedEpisodes: number;
  seedMix: string;
  fitEpochs: number;
  algo: 'grpo';
  steps: number;
  evalEpisodes: number;
  comparisonSteps: number;
  comparisonTask: number;
  curriculum: { dream: boolean; real: boolean };
  algoConfig: { dream: Readonly<Record<string, number>>; real: Readonly<Record<string, number>> };
}

/** The full guided run: the Start view's default. */
export const GUIDE: GuidePlan = {
  env: 'shop',
  seed: 1,
  /** Real episodes seeded into the buffer: the offline data the model learns from and retrieves. */
  seedEpisodes: 300,
  /** Successes and failures both, so the model learns what a purchase and a wrong turn look like. */
  seedMix: 'oracle=0.4,noisy=0.3,random=0.3',
  /**
   * Passes of the fit over the buffer: 2, not 3. On the shop's train split the dream from a 2-epoch
   * model did as well (40.6% against 39.0%, 3 seeds) with a third less fitting (results/guide/).
   */
  fitEpochs: 2,
  algo: 'grpo',
  /** Synthetic steps of the dream run, and real steps of the real-mode run beside it. */
  steps: 8000,
  /** Held-out test episodes each policy is judged on, greedily, in the real shop. */
  evalEpisodes: 200,
  /** Steps of the episode where the model's imagined next states stand beside the real ones. */
  comparisonSteps: 12,
  /** Which test task that episode plays. */
  comparisonTask: 0,
  curriculum: { dream: CURRICULUM_BY_DEFAULT.dream, real: CURRICULUM_BY_DEFAULT.real },
  /**
   * GRPO settings beyond the defaults, per run. The dream takes 2 passes over each iteration's
   * samples instead of 4: on the shop's train split (3 seeds, 300 episodes) the dream policy did as
   * well (39.0% against 37.7%, 3-epoch model) in three quarters of the time, while the real-mode run lost 6 points
   * with 2, so it keeps 4 (it trains beside the dream and takes none of the run's time).
   * results/guide/README.md.
   */
  algoConfig: { dream: { epochs: 2 }, real: {} },
};

export type GuideLength = 'full' | 'short';

/**
 * The lengths a person can choose under Advanced. Short is for a demo (a workshop, a first look):
 * the same loop, every phase and view, on a third of the data and steps, so the policies learn less;
 * its figures are its own (GUIDE_MEASURED).
 */
export const GUIDE_LENGTHS: Readonly<Record<GuideLength, GuidePlan>> = {
  full: GUIDE,
  short: { ...GUIDE, seedEpisodes: 100, fitEpochs: 1, steps: 2500, evalEpisodes: 50 },
};

export type GuidePhaseId = 'seed' | 'fit' | 'baseline' | 'dream' | 'real' | 'compare';

/**
 * The two lanes the phases run in, each in order, side by side: the dream's (the buffer, the model,
 * the dream run, then its policy beside the model in the comparison episode) in the page's trainer
 * worker, and the real-mode comparison's (the untrained policy judged, then the real run) in a
 * second one. Nothing in one lane waits for the other.
 */
export const GUIDE_LANES: Readonly<Record<'dream' | 'real', readonly GuidePhaseId[]>> = {
  dream: ['seed', 'fit', 'dream', 'compare'],
  real: ['baseline', 'real'],
};

/**
 * What `npm run bench -- guide [--length short]` measured for each phase, in seconds, on the 2-core
 * machine with wasm (docs/benchmarks.md): the Start view quotes the whole, and a phase's time left
 * is estimated from its figure until the phase's own rate is known.
 */
export const GUIDE_MEASURED = {
  machine: 'a 2-core machine without a GPU, wasm',
  full: { seconds: { seed: 5, fit: 22, baseline: 6, dream: 28, real: 22, compare: 1 }, total: 56 },
  short: { seconds: { seed: 3, fit: 7, baseline: 4, dream: 8, real: 8, compare: 1 }, total: 19 },
} as const satisfies { machine: string } & Record<GuideLength, { seconds: Readonly<Record<GuidePhaseId, number>>; total: number }>;

export interface GuidePhase {
  id: GuidePhaseId;
  title: string;
  /** What the phase does, in one sentence a newcomer can follow, for the length that runs. */
  sentence: (plan: GuidePlan) => string;
  /** The view where what it makes lives. */
  view: { hash: string; label: string };
}

export const GUIDE_PHASES: readonly GuidePhase[] = [
  {
    id: 'seed',
    title: 'Collect real experience',
    sentence: (plan) => `Scripted shoppers play ${plan.seedEpisodes} episodes in the real shop, some well and some badly; every step goes into the replay buffer.`,
    view: { hash: '#buffer', label: 'Buffer' },
  },
  {
    id: 'fit',
    title: 'Learn an experience model',
    sentence: (plan) => `A small neural network learns, from those real steps, to predict what the shop does next and what it pays (${plan.fitEpochs === 1 ? 'one pass' : `${plan.fitEpochs} passes`} over the data).`,
    view: { hash: '#experience', label: 'Experience' },
  },
  {
    id: 'baseline',
    title: 'Judge the untrained policy',
    sentence: (plan) => `The policy both runs start from plays the ${plan.evalEpisodes} real test tasks they will be judged on: what each run gains is measured from here.`,
    view: { hash: '#evaluate', label: 'Evaluate' },
  },
  {
    id: 'dream',
    title: 'Train in the dream',
    sentence: (plan) => `A policy trains with GRPO for ${plan.steps.toLocaleString('en-US')} steps inside the model, which retrieves similar real steps for each prediction; the curriculum picks the tasks whose outcome varies most. No real step is taken.`,
    view: { hash: '#runs', label: 'Runs' },
  },
  {
    id: 'real',
    title: 'Train in the real shop, for comparison',
    sentence: (plan) => `Another policy trains the usual way: ${plan.steps.toLocaleString('en-US')} real steps in the real shop.`,
    view: { hash: '#runs', label: 'Runs' },
  },
  {
    id: 'compare',
    title: 'Imagined against real',
    sentence: () => 'The dream policy plays a test task in the real shop; at each step the model says what it imagines will happen, beside what the shop did.',
    view: { hash: '#experience', label: 'Experience' },
  },
];
