import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { UsageError } from '../../core/errors.ts';
import { SCRIPTED_POLICIES, type ScriptedPolicy } from '../../envs/episode.ts';
import { ENVIRONMENTS, envSpec } from '../../envs/registry.ts';
import { SiteFailingError } from '../../envs/web/failure-streak.ts';
import type { EnvSpec } from '../../envs/spec.ts';
import { rollout, rolloutPolicyFile, type RolloutSettings } from '../../jobs/rollout.ts';
import { parseBackend, useBackend } from '../../platform/tf.ts';
import { DEFAULT_SCRIPTED_EPISODES, policyFileRolloutSpec, scriptedRolloutSpec } from '../../jobs/rollout-spec.ts';
import { TRACE_LIMITS, TraceRecorder } from '../../jobs/trace-recorder.ts';
import { traceReportHtml } from '../../jobs/trace-report.ts';
import { fileProblem } from '../../platform/files.ts';
import { checkOutputPath, flagNamer, numberFlags, parseCommandArgs, parseFlags, requireOption, stringFlags } from '../args.ts';
import { keepResult, throwUnwritten } from '../outputs.ts';
import { readInputBytes } from '../../jobs/node-args.ts';
import type { CommandIO } from '../io.ts';
import { envErrorText, warnEnvErrors } from '../env-failures.ts';
import { PolicyFileError } from '../../policy/dgp.ts';
import { PRETRAINED, pretrainedOr } from '../../jobs/pretrained.ts';
import type { FirstEnvError } from '../../replay/seed.ts';

export const ROLLOUT_USAGE =
  'rollout --env <shop|home|web> --policy <oracle|random|noisy|shopper|FILE.dgp|pretrained (the shipped pretrained web policy)> [--split NAME] [--episodes N]\n' +
  '        [--seed S] [--max-steps N] [--backend wasm|cpu (FILE.dgp only)] [--transfer (FILE.dgp of another env: play it here zero-shot)]\n' +
  `        [--trace DIR (an HTML report of the first ${TRACE_LIMITS.episodes} episodes, step by step, in DIR/index.html)] [--json]`;

/** The tfjs backend a saved policy runs on where --backend names none. */
const DEFAULT_BACKEND = 'wasm';

interface RolloutArgs {
  spec: EnvSpec;
  settings: RolloutSettings;
  backend: string;
  json: boolean;
  /** Play a policy trained on another environment (zero-shot transfer). */
  transfer: boolean;
  /** Where the trace report goes (`--trace DIR`: DIR/index.html), and what records it. */
  trace: { file: string; recorder: TraceRecorder } | null;
}

/**
 * `--trace DIR`: the folder is made and its index.html shown writable before any episode, so a run
 * does not end unable to keep its trace.
 */
async function traceFile(dir: string): Promise<string> {
  try {
    await mkdir(dir, { recursive: true });
  } catch (error) {
    throw new UsageError(`--trace ${dir}: the folder cannot be made: ${fileProblem(error)}`);
  }
  const file = join(dir, 'index.html');
  await checkOutputPath(file, 'trace');
  return file;
}

/** Writes the trace report and says where, and what it left out. */
async function writeTrace(io: CommandIO, args: RolloutArgs, policy: string, probabilityNote?: string): Promise<{ path: string; episodes: number; untracedEpisodes: number } | null> {
  if (!args.trace) return null;
  const { file, recorder } = args.trace;
  const report = recorder.report({ env: args.spec.name, policy, split: args.settings.split, ...(probabilityNote ? { probabilityNote } : {}) });
  const html = traceReportHtml(report);
  throwUnwritten([await keepResult(file, html, `--trace ${file}`, 'the trace')]);
  const steps = report.episodes.reduce((n, e) => n + e.steps.length, 0);
  io.progress(`trace: ${file} (${report.episodes.length} episodes, ${steps} steps, ${(Buffer.byteLength(html) / 1024 / 1024).toFixed(1)} MiB)`);
  for (const note of report.notes) io.progress(`trace: ${note}`);
  return { path: file, episodes: report.episodes.length, untracedEpisodes: recorder.untracedEpisodes };
}

/** Progress on stderr about every tenth of the episodes. */
function progressEvery(io: CommandIO, label: string, total: number): (done: number) => void {
  const every = Math.max(1, Math.floor(total / 10));
  return (done) => {
    if (done % every === 0 || done === total) io.progress(`rollout ${label}: ${done}/${total} episodes`);
  };
}

/**
 * What the finished episodes said, noted as each ends: the first an env failure ended (its task
 * and error), for the warning (the jobs count them all); and, where a failing site stops the run
 * (SiteFailingError), how the episodes before the streak went: its failures are not all it played.
 */
function episodeWatch(): { note: (taskId: string, won: boolean, error: unknown) => void; first: () => FirstEnvError | null; annotate: (error: unknown) => unknown } {
  let first: FirstEnvError | null = null;
  let played = 0;
  let won = 0;
  return {
    note: (taskId, episodeWon, error) => {
      if (typeof error === 'string') {
        first ??= { taskId, error };
        return;
      }
      played++;
      if (episodeWon) won++;
    },
    first: () => first,
    annotate: (error) => {
      if (!(error instanceof SiteFailingError) || played === 0) return error;
      return new SiteFailingError(`${error.message}. Before it stopped, ${played} episode${played === 1 ? '' : 's'} played to their end, ${won} of them won (${((won / played) * 100).toFixed(1)}%)`, { cause: error });
    },
  };
}

/** Greedy evaluation of a saved policy (see jobs/rollout.ts). */
async function policyFileRollout(io: CommandIO, path: string, args: RolloutArgs): Promise<void> {
  const { spec, settings } = args;
  const bytes = await readInputBytes(path, '--policy');
  const backend = await useBackend([parseBackend(args.backend)]);
  const report = progressEvery(io, `${spec.name}/${path}`, settings.episodes ?? spec.tasks(settings.split).length);
  let done = 0;
  const episodes = episodeWatch();
  const { header, ...result } = await rolloutPolicyFile(spec, bytes, settings, {
    name: path,
    transfer: args.transfer,
    onNotice: (text) => io.progress(text),
    ...(args.trace ? { trace: args.trace.recorder } : {}),
    onEpisode: (trajectory) => {
      episodes.note(trajectory.task.id, trajectory.won, trajectory.envError);
      report(++done);
    },
  }).catch((error: unknown) => {
    // A file that is not a policy (empty, another format, damaged): say which file.
    if (error instanceof PolicyFileError) throw new PolicyFileError(error.problem, `--policy ${path}: ${error.message}`, { cause: error });
    throw episodes.annotate(error);
  });
  const trace = await writeTrace(io, args, path);
  // The evaluation counts them itself (result.envErrors, in the JSON when there are any).
  if (args.json) io.result({ env: spec.name, policy: path, backend, ...(header.env !== spec.name ? { trainedOn: header.env } : {}), ...result, ...(trace ? { trace } : {}) });
  else {
    io.out(
      `${spec.name} ${path} on ${result.split} (${backend}): success ${(result.successRate * 100).toFixed(1)}%${envErrorText(result)}, score ${result.meanScore.toFixed(1)}, ` +
        `${result.meanSteps.toFixed(2)} steps/episode\nactions digest ${result.actionsDigest}`,
    );
  }
  warnEnvErrors(io, result, 'episodes', episodes.first());
}

async function scriptedRollout(io: CommandIO, policy: ScriptedPolicy, args: RolloutArgs): Promise<void> {
  const { spec, settings } = args;
  const report = progressEvery(io, `${spec.name}/${policy}`, settings.episodes ?? DEFAULT_SCRIPTED_EPISODES);
  const episodes = episodeWatch();
  const summary = await rollout(spec, policy, settings, {
    onEpisode: (i, record) => {
      episodes.note(record.task.id, record.won, record.steps.at(-1)?.result.info.error);
      report(i + 1);
    },
    ...(args.trace ? { trace: args.trace.recorder } : {}),
  }).catch((error: unknown) => {
    throw episodes.annotate(error);
  });
  const trace = await writeTrace(io, args, policy, `${policy} is a scripted policy: it acts by its own rule and gives no probabilities, so the steps show none.`);
  if (args.json) io.result({ ...summary, ...(trace ? { trace } : {}) });
  else {
    io.out(
      `${summary.env} ${summary.policy} on ${summary.split}: success ${(summary.successRate * 100).toFixed(1)}%${envErrorText(summary)}, ` +
        `score ${summary.meanScore.toFixed(1)}, ${summary.meanSteps.toFixed(2)} steps/episode, ` +
        `invalid ${(summary.invalidActionRate * 100).toFixed(1)}%, ${Math.round(summary.stepsPerSec)} steps/s\ndigest ${summary.digest}`,
    );
  }
  warnEnvErrors(io, summary, 'episodes', episodes.first());
}

export async function rolloutCommand(io: CommandIO, argv: string[]): Promise<void> {
  const { values } = parseCommandArgs({
    args: argv,
    options: {
      env: { type: 'string' },
      policy: { type: 'string' },
      split: { type: 'string' },
      episodes: { type: 'string' },
      seed: { type: 'string' },
      'max-steps': { type: 'string' },
      json: { type: 'boolean', default: false },
      backend: { type: 'string' },
      transfer: { type: 'boolean', default: false },
      trace: { type: 'string' },
    },
    strict: true,
  });
  const spec = envSpec(requireOption(values.env, 'env', ENVIRONMENTS.map((e) => e.name)));
  // `--policy pretrained`: the shipped pretrained policy, played as any saved one.
  const policyFile = values.policy === PRETRAINED ? pretrainedOr(values.policy, 'policy') : values.policy;
  const fromFile = policyFile?.endsWith('.dgp') === true;
  if (!fromFile && values.backend !== undefined) throw new UsageError('--backend goes with --policy FILE.dgp (a scripted policy runs no model); drop it');
  if (!fromFile && values.transfer) throw new UsageError('--transfer plays a saved policy of another environment (--policy FILE.dgp); a scripted policy is this environment\'s own');
  const input = { ...stringFlags(values, { split: 'split' }), ...numberFlags(values, { episodes: 'episodes', seed: 'seed', maxSteps: 'max-steps' }) };
  const settings = fromFile
    ? parseFlags(policyFileRolloutSpec(spec), input, flagNamer(), 'to a saved policy')
    : parseFlags(scriptedRolloutSpec(spec), input, flagNamer(), 'to a scripted policy');
  const trace = values.trace === undefined ? null : { file: await traceFile(values.trace), recorder: new TraceRecorder() };
  const args: RolloutArgs = { spec, settings, backend: values.backend ?? DEFAULT_BACKEND, json: values.json, transfer: values.transfer, trace };
  if (fromFile) return policyFileRollout(io, policyFile as string, args);
  return scriptedRollout(io, requireOption(values.policy, 'policy', SCRIPTED_POLICIES), args);
}
