/**
 * The guided first run (jobs/guide-plan.ts): its phases one after the other, each through the
 * worker and entry point its own view uses, with progress, time left and Stop. The page keeps the
 * state as signals; the work is in the workers. Both trained runs are kept for the Runs view, the
 * model stays the Experience view's, the seeded episodes stay in the Buffer.
 */
import { computed, signal } from '@preact/signals';
import { proxy } from 'comlink';
import { errorMessage } from '../../core/errors.ts';
import { GUIDE, GUIDE_PHASES, type GuidePhaseId } from '../../jobs/guide-plan.ts';
import type { TrainerEvent, TrainRequest } from '../../services/trainer-service.ts';
import type { NeuralFitEvent } from '../../services/experience-protocol.ts';
import { DEFAULT_CURRICULUM } from '../../curriculum/curriculum.ts';
import type { EvalResult } from '../../train/evaluate.ts';
import type { TrainResult } from '../../train/trainer.ts';
import { experienceClient } from '../experience-client.ts';
import { useExperience } from '../experience/experience-state.ts';
import { replayClient } from '../replay-client.ts';
import { keepFinishedRun } from '../runs/runs-store.ts';
import { playerClient, trainerClient } from '../trainer-client.ts';
import { backendPreference as preferenceOf, type BackendChoice } from '../BackendSelect.tsx';

export type PhaseState = 'waiting' | 'running' | 'done' | 'stopped' | 'failed';
export type GuideState = 'idle' | 'running' | 'stopping' | 'done' | 'stopped' | 'failed';

export interface PhaseProgress {
  state: PhaseState;
  /** Units done and in all (episodes, epochs, steps), and what they are. */
  done: number;
  total: number;
  unit: string;
  startedAt: number | null;
  /** Wall seconds the phase took, once it ended. */
  seconds: number | null;
}

/** One step of the comparison episode: the action, the model's imagined next state, the real one. */
export interface ComparisonRow {
  step: number;
  action: string;
  imagined: { text: string; reward: number; done: boolean };
  real: { text: string; reward: number; done: boolean };
  nextStateF1: number | null;
}

export interface GuideResult {
  untrained: EvalResult | null;
  dream: EvalResult | null;
  real: EvalResult | null;
  seeded: { episodes: number; transitions: number } | null;
  fitted: { transitions: number | null; seconds: number } | null;
  comparison: { instruction: string; rows: ComparisonRow[] } | null;
}

const fresh = (unit: string): PhaseProgress => ({ state: 'waiting', done: 0, total: 0, unit, startedAt: null, seconds: null });
const UNITS: Record<GuidePhaseId, string> = { seed: 'episodes', fit: 'epochs', baseline: 'test episodes', dream: 'synthetic steps', real: 'real steps', compare: 'steps' };
const NO_RESULT: GuideResult = { untrained: null, dream: null, real: null, seeded: null, fitted: null, comparison: null };
const initialPhases = (): Record<GuidePhaseId, PhaseProgress> =>
  Object.fromEntries(GUIDE_PHASES.map((p) => [p.id, fresh(UNITS[p.id])])) as Record<GuidePhaseId, PhaseProgress>;

export const guideState = signal<GuideState>('idle');
export const phases = signal<Record<GuidePhaseId, PhaseProgress>>(initialPhases());
export const current = signal<GuidePhaseId | null>(null);
export const guideResult = signal<GuideResult>(NO_RESULT);
export const guideError = signal<string | null>(null);
/** The tfjs backend the fit and both runs use ('auto': the fastest a short probe measures). */
export const guideBackend = signal<BackendChoice>('auto');
const backendPreference = () => preferenceOf(guideBackend.value);
/** Redrawn every second while a phase runs, so its time left counts down between progress reports. */
export const clock = signal(Date.now());

export const isRunning = computed(() => guideState.value === 'running' || guideState.value === 'stopping');

/** Seconds left in the running phase, at its rate so far; null before the rate is known. */
export function secondsLeft(progress: PhaseProgress, now: number): number | null {
  if (progress.state !== 'running' || progress.startedAt === null || progress.done <= 0 || progress.total <= 0) return null;
  const elapsed = (now - progress.startedAt) / 1000;
  return Math.max(0, (elapsed / progress.done) * (progress.total - progress.done));
}

function update(id: GuidePhaseId, change: Partial<PhaseProgress>): void {
  phases.value = { ...phases.value, [id]: { ...phases.value[id], ...change } };
}

class Stopped extends Error {}

let stopRequested = false;

/** Run one phase: progress goes to its row, a Stop between or inside phases ends the run as stopped. */
async function phase<T>(id: GuidePhaseId, total: number, work: (report: (done: number) => void) => Promise<T>): Promise<T> {
  if (stopRequested) throw new Stopped();
  current.value = id;
  const startedAt = Date.now();
  update(id, { state: 'running', total, done: 0, startedAt });
  try {
    const value = await work((done) => update(id, { done: Math.min(done, total) }));
    update(id, { state: stopRequested ? 'stopped' : 'done', seconds: (Date.now() - startedAt) / 1000 });
    if (stopRequested) throw new Stopped();
    return value;
  } catch (e) {
    if (!(e instanceof Stopped)) update(id, { state: stopRequested ? 'stopped' : 'failed', seconds: (Date.now() - startedAt) / 1000 });
    throw stopRequested ? new Stopped() : e;
  }
}

function trainRequest(mode: 'dream' | 'real'): TrainRequest {
  const curriculum = GUIDE.curriculum[mode];
  return {
    env: GUIDE.env,
    algo: GUIDE.algo,
    mode,
    ...(mode === 'dream' ? { realBudget: 0, syntheticBudget: GUIDE.steps } : { realBudget: GUIDE.steps }),
    seed: GUIDE.seed,
    evalEvery: 0,
    finalEvalEpisodes: GUIDE.evalEpisodes,
    curriculum: curriculum ? { lambda: DEFAULT_CURRICULUM.lambda } : null,
    recordStats: false,
  };
}

async function train(id: 'dream' | 'real'): Promise<TrainResult> {
  const request = trainRequest(id);
  const client = trainerClient();
  const result = await phase(id, GUIDE.steps, async (report) => {
    await client.init(backendPreference());
    const onEvent = (event: TrainerEvent) => {
      if (event.kind === 'iteration') report(id === 'dream' ? event.metrics.syntheticTransitions : event.metrics.realTransitions);
    };
    return client.train(request, proxy(onEvent));
  });
  await keepFinishedRun(result, request).catch(() => undefined);
  return result;
}

/** Run the whole loop with the plan's defaults. */
export async function runGuide(): Promise<void> {
  if (isRunning.value) return;
  stopRequested = false;
  guideState.value = 'running';
  guideError.value = null;
  phases.value = initialPhases();
  guideResult.value = NO_RESULT;
  const ticker = setInterval(() => (clock.value = Date.now()), 1000);
  try {
    const seeded = await phase('seed', GUIDE.seedEpisodes, (report) =>
      replayClient().seed({ env: GUIDE.env, episodes: GUIDE.seedEpisodes, mix: GUIDE.seedMix, seed: GUIDE.seed }, proxy((p) => report(p.episodes))),
    );
    guideResult.value = { ...guideResult.value, seeded: { episodes: seeded.episodes, transitions: seeded.transitions } };

    const fitted = await phase('fit', GUIDE.fitEpochs, async (report) => {
      const preference = backendPreference();
      if (preference) await experienceClient().init(preference);
      return experienceClient().fitNeural({ env: GUIDE.env, epochs: GUIDE.fitEpochs, seed: GUIDE.seed }, proxy((event: NeuralFitEvent) => report(event.phase === 'validate' || event.done >= event.total ? event.epoch : event.epoch - 1)));
    });
    guideResult.value = { ...guideResult.value, fitted: { transitions: fitted.model.transitions, seconds: fitted.seconds } };

    const untrained = await phase('baseline', GUIDE.evalEpisodes, async (report) => {
      await trainerClient().init(backendPreference());
      return trainerClient().evaluateUntrained(GUIDE.env, GUIDE.seed, GUIDE.evalEpisodes, proxy((done: number) => report(done)));
    });
    guideResult.value = { ...guideResult.value, untrained };

    const dream = await train('dream');
    // The dream policy, kept to play the comparison episode after the real run replaces it in the worker.
    const dreamPolicy = await trainerClient().exportPolicy();
    guideResult.value = { ...guideResult.value, dream: dream.eval };
    const real = await train('real');
    guideResult.value = { ...guideResult.value, real: real.eval };

    const comparison = await phase('compare', GUIDE.comparisonSteps, (report) => compareEpisode(dreamPolicy, report));
    guideResult.value = { ...guideResult.value, comparison };
    guideState.value = 'done';
  } catch (e) {
    if (e instanceof Stopped) guideState.value = 'stopped';
    else {
      guideError.value = errorMessage(e);
      guideState.value = 'failed';
    }
  } finally {
    clearInterval(ticker);
    current.value = null;
  }
}

/**
 * The dream policy plays a test task greedily in the real shop (the Evaluate view's stepping), and
 * each of its actions is also put to the experience model from the same real state (the Experience
 * view's stepping): what it imagines, beside what the shop did.
 */
async function compareEpisode(policyBytes: Uint8Array, report: (done: number) => void): Promise<{ instruction: string; rows: ComparisonRow[] }> {
  const experience = experienceClient();
  const player = playerClient();
  await player.loadPolicy(policyBytes);
  const played = await player.startEpisode('test', GUIDE.comparisonTask);
  await useExperience({ kind: 'neural' });
  await experience.start(GUIDE.env, 'test', GUIDE.comparisonTask);
  const rows: ComparisonRow[] = [];
  for (let step = 1; step <= GUIDE.comparisonSteps && !stopRequested; step++) {
    const chosen = await player.stepPolicy();
    const imagined = await experience.step(chosen.action);
    rows.push({
      step,
      action: chosen.action,
      imagined: { text: imagined.predicted.next.text, reward: imagined.predicted.reward, done: imagined.predicted.done },
      real: { text: imagined.real.observation.text, reward: imagined.real.reward, done: imagined.real.done },
      nextStateF1: imagined.score?.nextStateF1 ?? null,
    });
    report(step);
    if (chosen.result.done) break;
  }
  return { instruction: played.task.instruction, rows };
}

/** Stop the phase running (it ends as its own Stop ends it) and the phases after it. */
export async function stopGuide(): Promise<void> {
  if (guideState.value !== 'running') return;
  stopRequested = true;
  guideState.value = 'stopping';
  const running = current.value;
  try {
    if (running === 'seed') await replayClient().stop();
    else if (running === 'fit') await experienceClient().stopFit();
    else if (running === 'dream' || running === 'real') await trainerClient().stop();
  } catch (e) {
    guideError.value = errorMessage(e);
  }
}
