/**
 * A training run's checkpoint: everything an RL run (modes real, dream, s2r) needs to go on after a
 * reload, a crashed worker or a killed process and end exactly where the uninterrupted run would —
 * the policy's weights, the optimiser's moments and step count, every random stream's state, the
 * counters, the curve so far, the curriculum's pool and statistics, and the synthetic world's
 * episode count. It is taken between iterations, where no episode is open.
 *
 * On disk (the CLI's `--checkpoint FILE`) and in IndexedDB (the app) it is one byte string: the
 * weight-file container (core/weight-file.ts) with magic "DGCF", the tensors as its weights and the
 * rest as its header's `training` object, checked field by field when read back.
 *
 * `run` is the run's settings as the trainer resolved them: a checkpoint resumes only the run that
 * wrote it, and a different one is refused with the settings that differ.
 */
import * as v from 'valibot';
import { DreamGymError } from '../core/errors.ts';
import type { RngState } from '../core/rng.ts';
import { CHECKPOINT_CONTAINER, ContainerCodec, type ContainerProblem, type WeightEntry } from '../core/weight-file.ts';
import type { CurriculumState } from '../curriculum/curriculum.ts';
import type { SyntheticWorldState } from '../experience/synthetic-env.ts';
import type { ExperienceStats } from '../experience/types.ts';
import type { EvalResult } from './evaluate.ts';
import type { IterationMetrics } from './metrics.ts';

/** How often a run that checkpoints saves, in seconds of wall time, unless told (the CLI's and the app's default). */
export const DEFAULT_CHECKPOINT_SECONDS = 30;
/** The largest checkpoint read back: a policy's weights three times over (weights and two moments) and a long run's curve. */
export const CHECKPOINT_MAX_BYTES = 512 * 1024 * 1024;

/** The run's state apart from its tensors. */
export interface TrainProgress {
  /** The run's settings as resolved (Trainer.runSettings): what a resume must match. */
  run: Record<string, unknown>;
  env: string;
  /** Iterations (updates) done. */
  iteration: number;
  /** Index into the run's phases (s2r: 0 dream, 1 real) of the phase the next iteration belongs to. */
  phaseIndex: number;
  realPhaseFrom: number | null;
  realTransitions: number;
  syntheticTransitions: number;
  realResets: number;
  /** Wall seconds the run had trained when the checkpoint was taken (a resumed run's clock goes on from here). */
  elapsedSeconds: number;
  rngs: { tasks: RngState; act: RngState; update: RngState; curriculum: RngState; imagine: RngState | null };
  optimizerSteps: number;
  history: IterationMetrics[];
  lastEval: EvalResult | null;
  curriculum: CurriculumState | null;
  world: SyntheticWorldState | null;
  /** The experience model's counters so far (a resumed run's model starts at zero and adds to them). */
  modelStats: ExperienceStats | null;
}

export interface TrainCheckpoint {
  progress: TrainProgress;
  backend: string;
  savedAt: string;
  /** The policy network's weights, in its order. */
  policy: WeightEntry[];
  /** Adam's first and second moments, in the policy's variable order. */
  moments: { m: Float32Array[]; v: Float32Array[] };
}

export type CheckpointProblem = Exclude<ContainerProblem, 'wrong-kind'> | 'not-a-checkpoint' | 'other-run';

/** A checkpoint could not be written, read, or used for this run; `problem` says which. */
export class CheckpointError extends DreamGymError {
  readonly problem: CheckpointProblem;
  constructor(problem: CheckpointProblem, message: string, options?: { cause?: unknown }) {
    super(`checkpoint-${problem}`, message, options);
    this.problem = problem;
  }
}

const codec = new ContainerCodec(CHECKPOINT_CONTAINER, (problem, message, options) => new CheckpointError(problem === 'wrong-kind' ? 'not-a-checkpoint' : problem, message, options));

const count = v.pipe(v.number(), v.integer(), v.minValue(0));
const word = v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(0xffffffff));
const rngState = v.pipe(v.array(word), v.length(4)) as unknown as v.GenericSchema<RngState>;
const jsonObject = v.custom<Record<string, unknown>>((x) => typeof x === 'object' && x !== null && !Array.isArray(x), 'an object');
const PROGRESS = v.object({
  run: jsonObject,
  env: v.pipe(v.string(), v.minLength(1)),
  iteration: count,
  phaseIndex: v.pipe(count, v.maxValue(1)),
  realPhaseFrom: v.nullable(count),
  realTransitions: count,
  syntheticTransitions: count,
  realResets: count,
  elapsedSeconds: v.pipe(v.number(), v.minValue(0)),
  rngs: v.object({ tasks: rngState, act: rngState, update: rngState, curriculum: rngState, imagine: v.nullable(rngState) }),
  optimizerSteps: count,
  // The curve, the last evaluation and the curriculum are this build's own JSON; their outer shape is
  // checked here and the curriculum checks its tasks as it takes them back.
  history: v.array(jsonObject),
  lastEval: v.nullable(jsonObject),
  curriculum: v.nullable(
    v.object({
      version: count,
      generated: v.array(v.looseObject({ id: v.string(), env: v.string(), instruction: v.string(), difficulty: v.number(), origin: v.picklist(['seed', 'generated']) })),
      statistics: v.object({ groups: v.array(v.tuple([v.string(), jsonObject])), totals: v.array(v.tuple([v.string(), jsonObject])) }),
      generator: jsonObject,
    }),
  ),
  world: v.nullable(v.object({ episodes: count, counters: jsonObject })),
  modelStats: v.nullable(jsonObject),
});

const MOMENT_PREFIX = { m: 'adam.m/', v: 'adam.v/' } as const;

export function encodeCheckpoint(checkpoint: TrainCheckpoint): Uint8Array {
  const { progress } = checkpoint;
  const named = (prefix: string, data: readonly Float32Array[]): WeightEntry[] =>
    data.map((d, i) => {
      const w = checkpoint.policy[i];
      if (!w) throw new CheckpointError('shape', `cannot encode: the optimiser has ${data.length} moments, the policy ${checkpoint.policy.length} weights`);
      return { name: `${prefix}${w.name}`, shape: w.shape, data: d };
    });
  return codec.encode(
    {
      env: progress.env,
      algorithm: String(progress.run.algo ?? 'unknown'),
      backend: checkpoint.backend,
      architecture: { policy: progress.run.policy ?? {} },
      featurizer: {},
      training: progress as unknown as Record<string, unknown>,
      evaluation: progress.lastEval as unknown as Record<string, unknown> | null,
      createdAt: checkpoint.savedAt,
    },
    [...checkpoint.policy, ...named(MOMENT_PREFIX.m, checkpoint.moments.m), ...named(MOMENT_PREFIX.v, checkpoint.moments.v)],
  );
}

/** Reads and checks a checkpoint; throws CheckpointError saying what is wrong (another file kind, damage, a field out of shape). */
export function decodeCheckpoint(bytes: Uint8Array): TrainCheckpoint {
  const { header, weights } = codec.decode(bytes, { maxBytes: CHECKPOINT_MAX_BYTES });
  const parsed = v.safeParse(PROGRESS, header.training);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    const where = issue ? v.getDotPath(issue) : null;
    throw new CheckpointError('header', `the training checkpoint's state is damaged: ${where ? `field ${where}: ` : ''}${issue?.message ?? 'unreadable'}`);
  }
  const policy = weights.filter((w) => !w.name.startsWith(MOMENT_PREFIX.m) && !w.name.startsWith(MOMENT_PREFIX.v));
  const moment = (prefix: string): Float32Array[] =>
    policy.map((w) => {
      const found = weights.find((x) => x.name === `${prefix}${w.name}`);
      if (!found || found.data.length !== w.data.length) throw new CheckpointError('shape', `the training checkpoint lacks the optimiser's ${prefix}${w.name} (or it has the wrong size); the file is damaged`);
      return found.data;
    });
  return { progress: parsed.output as unknown as TrainProgress, backend: header.backend, savedAt: header.createdAt, policy, moments: { m: moment(MOMENT_PREFIX.m), v: moment(MOMENT_PREFIX.v) } };
}

/**
 * Refuse a checkpoint of another run: the settings that differ, each with the checkpoint's value and
 * this run's, so a person sees what to change back (or that the file is someone else's).
 */
export function checkSameRun(saved: Record<string, unknown>, current: Record<string, unknown>): void {
  const differ = differences(saved, current, '');
  if (differ.length === 0) return;
  const show = (x: unknown) => {
    const text = x === undefined ? 'unset' : JSON.stringify(x);
    return text.length > 80 ? `${text.slice(0, 77)}...` : text;
  };
  const listed = differ.slice(0, 8).map((k) => `${k.path} is ${show(k.saved)} there, ${show(k.current)} here`);
  if (differ.length > listed.length) listed.push(`and ${differ.length - listed.length} more`);
  throw new CheckpointError(
    'other-run',
    `the checkpoint is of another run: ${listed.join('; ')}. ` +
      'Resume with the settings it was started with, or start afresh without resuming.',
  );
}

const isPlainObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

/** The settings that differ, by dotted path: inside a settings object (`config.minibatchSize`), not the whole object. */
function differences(saved: Record<string, unknown>, current: Record<string, unknown>, prefix: string): { path: string; saved: unknown; current: unknown }[] {
  const keys = [...new Set([...Object.keys(saved), ...Object.keys(current)])];
  return keys.flatMap((key) => {
    const [a, b] = [saved[key], current[key]];
    if (JSON.stringify(a) === JSON.stringify(b)) return [];
    if (isPlainObject(a) && isPlainObject(b)) return differences(a, b, `${prefix}${key}.`);
    return [{ path: `${prefix}${key}`, saved: a, current: b }];
  });
}
