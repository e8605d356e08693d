/**
 * The guided first run (jobs/guide-plan.ts): its phases in two lanes side by side, each through the
 * worker and entry point its own view uses, with progress from the first second, time left and Stop.
 * The page keeps the state as signals; the work is in the workers. Both trained runs are kept, with
 * their policies, for the Runs and Evaluate views; the model stays the Experience view's; the seeded
 * episodes stay in the Buffer. The run keeps itself in this browser (guide-record.ts): a reload
 * offers to resume it from the phases it had not finished, its two training runs from their last
 * checkpoints, and a finished run's summary is still there after one.
 */
import { computed, signal } from '@preact/signals';
import { proxy } from 'comlink';
import { errorMessage } from '../../core/errors.ts';
import { GUIDE_LANES, GUIDE_LENGTHS, GUIDE_MEASURED, GUIDE_PHASES, type GuideLength, type GuidePhaseId, type GuidePlan } from '../../jobs/guide-plan.ts';
import type { BackendProbe } from '../../platform/backend-probe.ts';
import type { TrainerEvent, TrainRequest } from '../../services/trainer-service.ts';
import type { NeuralFitEvent } from '../../services/experience-protocol.ts';
import { DEFAULT_CURRICULUM } from '../../curriculum/curriculum.ts';
import type { IterationMetrics } from '../../train/metrics.ts';
import type { TrainResult } from '../../train/trainer.ts';
import { experienceClient } from '../experience-client.ts';
import { useExperience } from '../experience/experience-state.ts';
import { replayClient } from '../replay-client.ts';
import { keepFinishedRun } from '../runs/runs-store.ts';
import { besideTrainerClient, playerClient, trainerClient, type TrainerClient } from '../trainer-client.ts';
import { backendPreference as preferenceOf, type BackendChoice } from '../BackendSelect.tsx';
import { forgetGuideRecord, NO_RESULT, readGuideRecord, writeGuideRecord, type ComparisonRow, type GuideRecord, type GuideResult, type GuideState, type PhaseState } from './guide-record.ts';

export type { ComparisonRow, GuideResult, GuideState, PhaseState } from './guide-record.ts';

export interface PhaseProgress {
  state: PhaseState;
  /** How much of the phase is done, 0–1, by its own reports; null before its first report. */
  fraction: number | null;
  /** What it is doing, in words (`3,120 / 8,000 synthetic steps`). */
  detail: string;
  startedAt: number | null;
  /** Wall seconds the phase took, once it ended. */
  seconds: number | null;
}

/** The checkpoint slot of each of the guided run's training runs (services/checkpoint-store.ts). */
const SLOTS = { dream: 'guide-dream', real: 'guide-real' } as const;
/** The share of a training phase before its final evaluation (measured: the 200 test episodes take about a tenth). */
const TRAINING_SHARE = 0.9;
/** The share of the fit spent posing its transitions with their retrieved examples, before the epochs. */
const PREPARE_SHARE = 0.15;

const fresh = (): PhaseProgress => ({ state: 'waiting', fraction: null, detail: '', startedAt: null, seconds: null });
const initialPhases = (): Record<GuidePhaseId, PhaseProgress> => Object.fromEntries(GUIDE_PHASES.map((p) => [p.id, fresh()])) as Record<GuidePhaseId, PhaseProgress>;

export const guideState = signal<GuideState>('idle');
export const phases = signal<Record<GuidePhaseId, PhaseProgress>>(initialPhases());
export const guideResult = signal<GuideResult>(NO_RESULT);
export const guideError = signal<string | null>(null);
/** The backend the dream lane trained on and how `auto` chose it, for the one backend sentence. */
export const guideBackendUsed = signal<{ backend: string; probe: BackendProbe | null } | null>(null);
/**
 * The guided run's dream as the Curriculum view shows it when the Train view has no run of its own:
 * its request and its iterations so far (its curriculum lives in the page's trainer worker).
 */
export const guideDreamRun = signal<{ request: TrainRequest; history: IterationMetrics[]; active: boolean } | null>(null);
/**
 * The length of the run (jobs/guide-plan.ts: GUIDE_LENGTHS): chosen under Advanced before a run,
 * kept with the run, so a resumed or reloaded run shows and plays its own.
 */
export const guideLength = signal<GuideLength>('full');
/** The budgets of the run shown (or about to start). */
export const guidePlan = computed<GuidePlan>(() => GUIDE_LENGTHS[guideLength.value]);
const plan = (): GuidePlan => guidePlan.value;
/** The tfjs backend the fit and both runs use ('auto': the fastest a short probe measures). */
export const guideBackend = signal<BackendChoice>('auto');
const backendPreference = () => preferenceOf(guideBackend.value);
/** Redrawn every second while a phase runs, so its time left counts down between progress reports. */
export const clock = signal(Date.now());

export const isRunning = computed(() => guideState.value === 'running' || guideState.value === 'stopping');

/**
 * Seconds left in a running phase: at its own rate once it has reported some progress, before that
 * from what the bench measured for it (`estimated`). Null for a phase that is not running.
 */
export function secondsLeft(id: GuidePhaseId, progress: PhaseProgress, now: number): { seconds: number; estimated: boolean } | null {
  if (progress.state !== 'running' || progress.startedAt === null) return null;
  const elapsed = (now - progress.startedAt) / 1000;
  if (progress.fraction !== null && progress.fraction >= 0.02 && elapsed >= 1) {
    return { seconds: Math.max(0, (elapsed / progress.fraction) * (1 - progress.fraction)), estimated: false };
  }
  return { seconds: Math.max(1, GUIDE_MEASURED[guideLength.value].seconds[id] - elapsed), estimated: true };
}

function update(id: GuidePhaseId, change: Partial<PhaseProgress>): void {
  phases.value = { ...phases.value, [id]: { ...phases.value[id], ...change } };
}

function addResult(change: Partial<GuideResult>): void {
  guideResult.value = { ...guideResult.value, ...change };
}

class Stopped extends Error {}

let stopRequested = false;
let startedAt = 0;
let dreamPolicy: Uint8Array | null = null;

/**
 * Writes go one after another, so the record never goes back to an older state. `starting`: a phase
 * written as running before it shows as running.
 */
let writing: Promise<void> = Promise.resolve();
function persist(starting?: GuidePhaseId): Promise<void> {
  const recordOf = (id: GuidePhaseId): GuideRecord['phases'][GuidePhaseId] =>
    id === starting ? { state: 'running', seconds: null } : { state: phases.value[id].state, seconds: phases.value[id].seconds };
  const record: GuideRecord = {
    state: guideState.value,
    length: guideLength.value,
    startedAt,
    phases: Object.fromEntries(GUIDE_PHASES.map((p) => [p.id, recordOf(p.id)])) as GuideRecord['phases'],
    result: guideResult.value,
    dreamPolicy: guideResult.value.comparison ? null : dreamPolicy,
  };
  // A browser that will not keep it (private mode, a full disk) still runs the guide; only a reload would lose it.
  writing = writing.then(() => writeGuideRecord(record)).catch(() => undefined);
  return writing;
}

const int = (n: number) => n.toLocaleString('en-US');

/**
 * Run one phase: its reports go to its row, a Stop between or inside phases ends it as stopped.
 * `keep` says what the phase adds to the result, kept with its end.
 */
async function phase<T>(id: GuidePhaseId, work: (report: (fraction: number, detail: string) => void) => Promise<T>, keep: (value: T) => Partial<GuideResult>): Promise<T> {
  if (stopRequested) throw new Stopped();
  // Kept before it shows: a reload as soon as the phase shows as running finds it running, and offers
  // it back as interrupted, not as waiting.
  await persist(id);
  if (stopRequested) throw new Stopped();
  const began = Date.now();
  update(id, { state: 'running', fraction: null, detail: '', startedAt: began, seconds: null });
  const seconds = () => (Date.now() - began) / 1000;
  try {
    const value = await work((fraction, detail) => update(id, { fraction: Math.min(1, Math.max(0, fraction)), detail }));
    if (stopRequested) throw new Stopped();
    addResult(keep(value));
    update(id, { state: 'done', fraction: 1, seconds: seconds() });
    void persist();
    return value;
  } catch (e) {
    update(id, { state: stopRequested ? 'stopped' : 'failed', seconds: seconds() });
    void persist();
    throw stopRequested ? new Stopped() : e;
  }
}

function trainRequest(mode: 'dream' | 'real'): TrainRequest {
  const curriculum = plan().curriculum[mode];
  return {
    env: plan().env,
    algo: plan().algo,
    mode,
    ...(mode === 'dream' ? { realBudget: 0, syntheticBudget: plan().steps } : { realBudget: plan().steps }),
    seed: plan().seed,
    evalEvery: 0,
    finalEvalEpisodes: plan().evalEpisodes,
    curriculum: curriculum ? { lambda: DEFAULT_CURRICULUM.lambda } : null,
    algoConfig: plan().algoConfig[mode],
    recordStats: false,
    checkpointSlot: SLOTS[mode],
  };
}

interface Trained {
  result: TrainResult;
  policy: Uint8Array;
  runId: string | null;
  backend: string | null;
}

/**
 * One of the two training runs, in its own worker: from its checkpoint when a reload interrupted it
 * (`resume`), else from the start. Its policy is kept with it for Runs and Evaluate.
 */
function train(id: 'dream' | 'real', client: TrainerClient, resume: boolean): Promise<Trained> {
  const request = trainRequest(id);
  const unit = id === 'dream' ? 'synthetic steps inside the model' : 'real steps in the shop';
  return phase(
    id,
    async (report) => {
      await client.init(backendPreference());
      report(0, `starting: 0 / ${int(plan().steps)} ${unit}`);
      if (id === 'dream') guideDreamRun.value = { request, history: [], active: true };
      const onEvent = (event: TrainerEvent) => {
        if (event.kind === 'iteration' && id === 'dream' && guideDreamRun.value) {
          guideDreamRun.value = { ...guideDreamRun.value, history: [...guideDreamRun.value.history, event.metrics] };
        }
        if (event.kind === 'iteration') {
          const spent = id === 'dream' ? event.metrics.syntheticTransitions : event.metrics.realTransitions;
          report(TRAINING_SHARE * Math.min(1, spent / plan().steps), `${int(spent)} / ${int(plan().steps)} ${unit}`);
        } else if (event.kind === 'evaluating') {
          report(TRAINING_SHARE + (1 - TRAINING_SHARE) * (event.done / Math.max(1, event.total)), `judging the policy on ${int(event.total)} real test tasks: ${int(event.done)} / ${int(event.total)}`);
        }
      };
      const saved = resume ? await client.savedRun(SLOTS[id]).catch(() => null) : null;
      if (!resume) await client.discardSavedRun(SLOTS[id]).catch(() => undefined);
      const result = await (saved ? client.resumeSavedRun(proxy(onEvent), SLOTS[id]) : client.train(request, proxy(onEvent))).finally(() => {
        if (id === 'dream' && guideDreamRun.value) guideDreamRun.value = { ...guideDreamRun.value, active: false };
      });
      if (id === 'dream' && guideDreamRun.value) guideDreamRun.value = { ...guideDreamRun.value, history: result.history };
      const policy = await client.exportPolicy();
      const stored = result.stopped ? null : await keepFinishedRun(result, request, policy).catch(() => null);
      const { backend } = await client.status();
      if (id === 'dream' && backend) guideBackendUsed.value = { backend, probe: await client.backendProbe() };
      return { result, policy, runId: stored?.id ?? null, backend };
    },
    (trained) => ({
      [id]: trained.result.eval,
      runIds: { ...guideResult.value.runIds, [id]: trained.runId },
      backends: { ...guideResult.value.backends, [id]: trained.backend },
    }),
  );
}

const finished = (id: GuidePhaseId) => phases.value[id].state === 'done';

/**
 * Each phase's work (the lanes it runs in, and their order, are the plan's: GUIDE_LANES). `resume`:
 * a reload cut the phase short, so a training run goes on from its checkpoint.
 */
const PHASE_WORK: Record<GuidePhaseId, (resume: boolean) => Promise<unknown>> = {
  seed: () =>
    phase(
      'seed',
      (report) => replayClient().seed({ env: plan().env, episodes: plan().seedEpisodes, mix: plan().seedMix, seed: plan().seed }, proxy((p) => report(p.episodes / plan().seedEpisodes, `${int(p.episodes)} / ${int(plan().seedEpisodes)} episodes, ${int(p.transitions)} real steps`))),
      (seeded) => ({ seeded: { episodes: seeded.episodes, transitions: seeded.transitions } }),
    ),
  fit: () =>
    phase(
      'fit',
      async (report) => {
        const preference = backendPreference();
        if (preference) await experienceClient().init(preference);
        report(0, 'reading the buffer');
        return experienceClient().fitNeural({ env: plan().env, epochs: plan().fitEpochs, seed: plan().seed }, proxy((event: NeuralFitEvent) => report(...fitProgress(event))));
      },
      (fitted) => ({ fitted: { transitions: fitted.model.transitions, seconds: fitted.seconds } }),
    ),
  dream: async (resume) => {
    dreamPolicy = (await train('dream', trainerClient(), resume)).policy;
  },
  compare: () => {
    const policy = dreamPolicy;
    if (!policy) throw new Error('the dream policy is not kept in this browser any more: start the guided run over');
    return phase('compare', (report) => compareEpisode(policy, report), (comparison) => ({ comparison }));
  },
  // The real-mode comparison's lane runs in the second trainer worker.
  baseline: () =>
    phase(
      'baseline',
      async (report) => {
        const client = besideTrainerClient();
        await client.init(backendPreference());
        report(0, `0 / ${int(plan().evalEpisodes)} real test tasks`);
        return client.evaluateUntrained(plan().env, plan().seed, plan().evalEpisodes, proxy((done: number, total: number) => report(done / Math.max(1, total), `${int(done)} / ${int(total)} real test tasks`)));
      },
      (untrained) => ({ untrained }),
    ),
  real: (resume) => train('real', besideTrainerClient(), resume),
};

/** A lane's phases in order, skipping those a resumed run had finished. */
async function runLane(ids: readonly GuidePhaseId[], resume: boolean): Promise<void> {
  for (const id of ids) {
    if (finished(id)) continue;
    await PHASE_WORK[id](resume && phases.value[id].state !== 'waiting');
  }
}

/** A fit's progress as a share of the whole fit: posing the transitions first, then each epoch alike. */
export function fitProgress(event: Pick<NeuralFitEvent, 'phase' | 'epoch' | 'epochs' | 'done' | 'total'>): [number, string] {
  const part = event.total > 0 ? event.done / event.total : 0;
  if (event.phase === 'prepare') return [PREPARE_SHARE * part, `posing ${int(event.done)} / ${int(event.total)} real steps with their retrieved examples`];
  const epochs = Math.max(1, event.epochs);
  const epoch = Math.min(epochs, Math.max(1, event.epoch));
  const within = event.phase === 'validate' ? 1 : part;
  const fraction = PREPARE_SHARE + (1 - PREPARE_SHARE) * ((epoch - 1 + within) / epochs);
  const doing = event.phase === 'validate' ? 'checking held-out episodes' : `step ${int(event.done)} / ${int(event.total)}`;
  return [fraction, `epoch ${epoch} / ${epochs} · ${doing}`];
}

/**
 * Run the whole loop with the plan's defaults, both lanes at once; `resume` goes on from a run a
 * reload interrupted (its finished phases kept, its training runs from their checkpoints).
 */
export async function runGuide(options: { resume?: boolean } = {}): Promise<void> {
  if (isRunning.value) return;
  const resume = options.resume === true && guideState.value === 'interrupted';
  stopRequested = false;
  guideError.value = null;
  if (!resume) {
    phases.value = initialPhases();
    guideResult.value = NO_RESULT;
    guideBackendUsed.value = null;
    dreamPolicy = null;
    startedAt = Date.now();
  }
  guideState.value = 'running';
  void persist();
  const ticker = setInterval(() => (clock.value = Date.now()), 1000);
  try {
    const lanes = [runLane(GUIDE_LANES.dream, resume), runLane(GUIDE_LANES.real, resume)].map((lane) =>
      lane.catch(async (e: unknown) => {
        // One lane failing stops the other: the comparison needs both.
        if (!(e instanceof Stopped) && !stopRequested) await stopLanes();
        throw e;
      }),
    );
    const outcomes = await Promise.allSettled(lanes);
    const failure = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected' && !(o.reason instanceof Stopped));
    if (failure) {
      guideError.value = errorMessage(failure.reason);
      guideState.value = 'failed';
    } else {
      guideState.value = outcomes.some((o) => o.status === 'rejected') ? 'stopped' : 'done';
    }
  } finally {
    clearInterval(ticker);
    await persist();
  }
}

/** Start over, forgetting a run a reload interrupted (its checkpoints too). */
export async function startOver(): Promise<void> {
  if (isRunning.value) return;
  guideState.value = 'idle';
  await Promise.all([forgetGuideRecord(), trainerClient().discardSavedRun(SLOTS.dream), besideTrainerClient().discardSavedRun(SLOTS.real)].map((p) => p.catch(() => undefined)));
  await runGuide();
}

let loading: Promise<void> | null = null;

/**
 * Read the latest guided run this browser keeps, once per page: a finished one shows its summary,
 * one a reload interrupted is offered to be resumed.
 */
export function loadGuide(): Promise<void> {
  loading ??= (async () => {
    const record = await readGuideRecord().catch(() => null);
    if (!record || isRunning.value || guideState.value !== 'idle') return;
    const interrupted = record.state === 'running' || record.state === 'stopping';
    phases.value = Object.fromEntries(
      GUIDE_PHASES.map((p) => {
        const kept = record.phases[p.id];
        // A phase the reload cut short goes on (or starts again) on resume.
        const state: PhaseState = kept.state === 'running' ? (interrupted ? 'stopped' : 'failed') : kept.state;
        return [p.id, { ...fresh(), state, seconds: kept.seconds, fraction: state === 'done' ? 1 : null }];
      }),
    ) as Record<GuidePhaseId, PhaseProgress>;
    guideResult.value = record.result;
    guideLength.value = record.length;
    dreamPolicy = record.dreamPolicy;
    startedAt = record.startedAt;
    guideState.value = interrupted ? 'interrupted' : record.state;
  })();
  return loading;
}

/**
 * The dream policy plays a test task greedily in the real shop (the Evaluate view's stepping), and
 * each of its actions is also put to the experience model from the same real state (the Experience
 * view's stepping): what it imagines, beside what the shop did.
 */
async function compareEpisode(policyBytes: Uint8Array, report: (fraction: number, detail: string) => void): Promise<{ instruction: string; rows: ComparisonRow[] }> {
  const experience = experienceClient();
  const player = playerClient();
  await player.loadPolicy(policyBytes);
  const played = await player.startEpisode('test', plan().comparisonTask);
  await useExperience({ kind: 'neural' });
  await experience.start(plan().env, 'test', plan().comparisonTask);
  const rows: ComparisonRow[] = [];
  for (let step = 1; step <= plan().comparisonSteps && !stopRequested; step++) {
    const chosen = await player.stepPolicy();
    const imagined = await experience.step(chosen.action);
    rows.push({
      step,
      action: chosen.action,
      imagined: { text: imagined.predicted.next.text, reward: imagined.predicted.reward, done: imagined.predicted.done },
      real: { text: imagined.real.observation.text, reward: imagined.real.reward, done: imagined.real.done },
      nextStateF1: imagined.score?.nextStateF1 ?? null,
    });
    report(step / plan().comparisonSteps, `step ${step} of at most ${plan().comparisonSteps}`);
    if (chosen.result.done) break;
  }
  return { instruction: played.task.instruction, rows };
}

/** Ask every running phase to stop (each ends as its own Stop ends it). */
async function stopLanes(): Promise<void> {
  stopRequested = true;
  const running = GUIDE_PHASES.filter((p) => phases.value[p.id].state === 'running').map((p) => p.id);
  await Promise.all(
    running.map(async (id) => {
      if (id === 'seed') await replayClient().stop();
      else if (id === 'fit') await experienceClient().stopFit();
      else if (id === 'dream') await trainerClient().stop();
      else if (id === 'real') await besideTrainerClient().stop();
    }),
  );
}

/** Stop the phases running and the phases after them. */
export async function stopGuide(): Promise<void> {
  if (guideState.value !== 'running') return;
  guideState.value = 'stopping';
  try {
    await stopLanes();
  } catch (e) {
    guideError.value = errorMessage(e);
  }
}
