/**
 * `experience eval`: the fidelity of an experience model on held-out real transitions. The held-out
 * transitions are played fresh in the real environment on its held-out split (oracle and random
 * episodes, as the buffer is seeded), so none of them is in the buffer the model retrieves from.
 */
import { UsageError } from '../../core/errors.ts';
import { importPolicy } from '../../policy/policy-file.ts';
import type { Policy } from '../../policy/policy.ts';
import { ENVIRONMENTS, envSpec } from '../../envs/registry.ts';
import { evaluateFidelity } from '../../jobs/evaluate-fidelity.ts';
import { parseMix } from '../../replay/seed.ts';
import { checkInitialModel, fitExperienceModel, fitSpec } from '../../jobs/fit-experience-model.ts';
import { parseBackend, useBackend } from '../../platform/tf.ts';
import { evalSpec } from '../../jobs/eval-spec.ts';
import { createExperienceModel } from '../../jobs/experience-models/create.ts';
import { nodeBuildContext } from '../../jobs/model-file.ts';
import { bufferFileSource, openBufferFile } from '../../jobs/buffer-file.ts';
import { checkOutputPath, flagNamer, numberFlags, parseCommandArgs, parseFlags, quoted, refuseOverlaps, requireOption, stringFlags } from '../args.ts';
import { readInputBytes } from '../../jobs/node-args.ts';
import { PRETRAINED, pretrainedOr } from '../../jobs/pretrained.ts';
import { DGX_MAX_BYTES } from '../../experience/neural/model-file.ts';
import { experienceEntry, experienceFields, experienceFlagNames, experienceOptions, experienceSettings, experienceUsage } from '../experience-flags.ts';
import type { CommandIO } from '../io.ts';
import { keepResult, throwUnwritten } from '../outputs.ts';
import { endsAsStopped, whenStopAsked } from '../stop-signals.ts';
import { warnEnvErrors } from '../env-failures.ts';

export const experienceEvalUsage = (): string =>
  'experience eval --env <shop|home|web> ' + experienceUsage() + '\n' +
  '        --buffer FILE.jsonl --heldout N [--mix oracle=0.5,random=0.5 | --policy FILE.dgp (on-policy: its own greedy steps)] [--seed S]\n' +
  '        [--split NAME (the split the held-out episodes are played on, default the env\'s test split; choose settings on another)]\n' +
  '        [--only-action ACTION] [--steps FILE.jsonl (every scored step: task, action, real and predicted reward, end and success)] [--backend wasm|cpu] [--json]';

export const EXPERIENCE_FIT_USAGE =
  'experience fit --env <shop|home|web> --buffer FILE.jsonl --out FILE.dgx [--init FILE.dgx|pretrained (fine-tune that model, or the shipped pretrained one, instead of fitting from nothing)]\n' +
  '        [--epochs 6] [--k 3] [--max-transitions N] [--event-weight W (1: none)] [--reasoning on|off] [--validation 0.1] [--seed S] [--backend wasm|cpu] [--json]';

/** `experience eval`'s own settings as its spec checked them, beside the model's (experience-flags.ts). */
type EvalSettings = Readonly<Record<string, unknown>> & { heldout: number; mix: string; seed: number; k: number; onlyAction?: string; policy?: string; split: string };

/** The tfjs backend a neural model runs on where --backend names none. */
const DEFAULT_BACKEND = 'wasm';

export async function experienceCommand(io: CommandIO, argv: string[]): Promise<void> {
  const [sub, ...rest] = argv;
  if (sub === 'fit') return fitCommand(io, rest);
  if (sub !== 'eval') throw new UsageError(sub === undefined ? 'experience needs a subcommand: fit or eval' : `unknown experience subcommand ${quoted(sub)}; use fit or eval`);
  const { values } = parseCommandArgs({
    args: rest,
    options: {
      ...experienceOptions(),
      env: { type: 'string' },
      buffer: { type: 'string' },
      heldout: { type: 'string' },
      mix: { type: 'string' },
      seed: { type: 'string' },
      split: { type: 'string' },
      'only-action': { type: 'string' },
      policy: { type: 'string' },
      steps: { type: 'string' },
      backend: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
    strict: true,
  });
  const spec = envSpec(requireOption(values.env, 'env', ENVIRONMENTS.map((e) => e.name)));
  if (values.steps !== undefined) {
    if (!values.steps.endsWith('.jsonl')) throw new UsageError(`--steps ${values.steps}: the scored steps are written as JSON lines; name a FILE.jsonl`);
    await checkOutputPath(values.steps, 'steps');
  }
  if (values.heldout === undefined) throw new UsageError('--heldout N is required (held-out real transitions to predict)');
  const entry = experienceEntry(values);
  const experience = entry.kind;
  if (values.backend !== undefined && experience !== 'neural' && values.policy === undefined) {
    throw new UsageError(`--backend goes with --experience neural or --policy (the tfjs models), not ${experience} alone; drop it`);
  }
  if (values.policy !== undefined && values.mix !== undefined) throw new UsageError('--mix chooses the scripted agents that play the held-out episodes; with --policy the policy plays them: drop one');
  const input = {
    ...numberFlags(values, { heldout: 'heldout', seed: 'seed' }),
    ...stringFlags(values, { mix: 'mix', onlyAction: 'only-action', policy: 'policy', split: 'split' }),
    ...experienceFields(values),
  };
  const settings = parseFlags(evalSpec(experience, spec), input, flagNamer(experienceFlagNames()), `with --experience ${experience}`) as EvalSettings;
  const { seed, k } = settings;
  // The mix's own words, before the model loads.
  parseMix(settings.mix);
  const backend = await useBackend([parseBackend(values.backend ?? DEFAULT_BACKEND)]);
  const model = await createExperienceModel({ kind: experience, settings: experienceSettings(entry, settings) }, nodeBuildContext(spec.name, { predictions: settings.heldout, onWorkerLost: (reason) => io.progress(`warning: ${reason}`) }));
  const buffer = await openBufferFile(values.buffer);
  const policy = settings.policy === undefined ? undefined : await loadPolicyFile(settings.policy, spec.name);
  const only = settings.onlyAction;
  const fidelity = await evaluateFidelity(spec, settings, {
    model,
    buffer,
    source: bufferFileSource(values.buffer, spec.name),
    ...(policy ? { policy } : {}),
    onStart: ({ scored, split, episodes, envErrors, firstEnvError, offlineTransitions }) => {
      io.progress(`${spec.name}: ${scored} held-out transitions from ${episodes} ${split} episodes${policy ? ` of ${settings.policy}` : ''}; ${offlineTransitions} offline real transitions to retrieve from (k=${k}); model ${model.name}`);
      warnEnvErrors(io, { envErrors, episodes: episodes + envErrors }, `held-out ${split} episodes played`, firstEnvError, 'left out of the scored steps, whose next state would be the failure');
    },
    onProgress: (done, total) => {
      if (done % 256 < 32 || done === total) io.progress(`predicted ${done}/${total}`);
    },
  });
  policy?.dispose();
  const { report } = fidelity;
  const stats = model.stats();
  const result = {
    env: spec.name,
    experience: model.name,
    ...(model.name === 'neural' ? { backend, modelFile: (values as Record<string, unknown>).model } : {}),
    k,
    buffer: { file: values.buffer, realTransitions: fidelity.offlineTransitions },
    heldout: { split: fidelity.split, episodes: fidelity.episodes, ...(fidelity.envErrors > 0 ? { envErrors: fidelity.envErrors } : {}), ...(fidelity.retried ? { retried: fidelity.retried } : {}), transitions: fidelity.scored, ...(settings.policy !== undefined ? { policy: settings.policy } : { mix: settings.mix }), seed, ...(only !== undefined ? { onlyAction: only, played: fidelity.played } : {}) },
    ...report,
    prompt: {
      tokenizer: 'llama-3',
      framing: 'single',
      meanTokensPerStep: fidelity.promptTokens.mean,
      p95TokensPerStep: fidelity.promptTokens.p95,
      maxTokensPerStep: fidelity.promptTokens.max,
    },
    model: stats,
  };
  if (values.json) io.result(result);
  else
    io.out(
      `${spec.name} ${model.name} on ${fidelity.scored} held-out transitions: next-state F1 ${report.nextStateF1}, action-set F1 ${report.actionSetF1}, ` +
        `reward accuracy ${report.rewardAccuracy} (MAE ${report.rewardMae}), done accuracy ${report.doneAccuracy}, ε_R ${report.epsilonR}, ε_P ${report.epsilonP}, ` +
        `invalid ${report.invalidOutputRate}, ${report.transitionsPerSecond} transitions/s; prompt ${result.prompt.meanTokensPerStep} tokens/step (k=${k})\n` +
        `success: ${report.success.real} real, ${report.success.predicted} predicted, precision ${report.success.precision ?? '—'}, recall ${report.success.recall ?? '—'}; ` +
        `episode end: precision ${report.done.precision ?? '—'}, recall ${report.done.recall ?? '—'}; terminal reward MAE ${report.terminalRewardMae ?? '—'}`,
    );
  // After the report, which a failed write does not take with it (the steps are then kept in the temporary folder).
  const steps = values.steps;
  if (steps !== undefined) throwUnwritten([await keepResult(steps, fidelity.steps.map((step) => `${JSON.stringify(step)}\n`).join(''), `--steps ${steps}`, 'the scored steps')]);
}

/** A saved policy for on-policy fidelity, refused before any work when it is not one or plays another env. */
async function loadPolicyFile(path: string, env: string): Promise<Policy> {
  const bytes = await readInputBytes(path, '--policy');
  const { policy, header } = importPolicy(bytes);
  if (header.env !== env) {
    policy.dispose();
    throw new UsageError(`--policy ${path} is a policy for ${quoted(header.env)}, not "${env}"`);
  }
  return policy;
}

/** `experience fit`: learn the neural experience model from a buffer's real transitions and write a .dgx. */
async function fitCommand(io: CommandIO, argv: string[]): Promise<void> {
  const { values } = parseCommandArgs({
    args: argv,
    options: {
      env: { type: 'string' },
      buffer: { type: 'string' },
      out: { type: 'string' },
      init: { type: 'string' },
      epochs: { type: 'string' },
      k: { type: 'string' },
      'max-transitions': { type: 'string' },
      'event-weight': { type: 'string' },
      reasoning: { type: 'string' },
      validation: { type: 'string' },
      seed: { type: 'string' },
      backend: { type: 'string', default: 'wasm' },
      json: { type: 'boolean', default: false },
    },
    strict: true,
  });
  const env = requireOption(values.env, 'env', ENVIRONMENTS.map((e) => e.name));
  if (values.out === undefined || !values.out.endsWith('.dgx')) throw new UsageError(`--out FILE.dgx is required (where the fitted model goes)${values.out !== undefined ? `, got ${quoted(values.out)}` : ''}`);
  const input = {
    env,
    ...numberFlags(values, { epochs: 'epochs', k: 'k', seed: 'seed', validationShare: 'validation', maxTransitions: 'max-transitions', eventWeight: 'event-weight' }),
    ...(values.reasoning !== undefined ? { reasoning: values.reasoning as 'on' | 'off' } : {}),
  };
  const fieldName = flagNamer({ validationShare: '--validation' });
  const spec = fitSpec(input, fieldName);
  await checkOutputPath(values.out, 'out');
  const initPath = values.init === undefined ? undefined : pretrainedOr(values.init, 'model');
  if (initPath !== undefined && !initPath.endsWith('.dgx')) throw new UsageError(`--init must name a .dgx experience model (or the word pretrained), got ${quoted(values.init ?? initPath)}`);
  const inputs = [...(values.buffer === undefined ? [] : [{ flag: '--buffer', path: values.buffer }]), ...(initPath === undefined ? [] : [{ flag: '--init', path: initPath }])];
  await refuseOverlaps(inputs, [{ flag: '--out', path: values.out }]);
  // Read before the buffer: a missing or wrong model is refused before minutes of loading.
  const init = initPath === undefined ? undefined : { name: values.init === PRETRAINED ? `pretrained (${initPath})` : initPath, bytes: await readInputBytes(initPath, '--init', DGX_MAX_BYTES) };
  if (init) checkInitialModel(init, env);
  const backend = await useBackend([parseBackend(values.backend)]);
  const buffer = await openBufferFile(values.buffer);
  const offline = await buffer.store.count({ env, source: 'real' });
  io.progress(`fit neural ${env} on ${backend}: ${Math.min(offline, spec.maxTransitions ?? offline)} real transitions, k=${spec.k}, ${spec.epochs} epochs${init ? `, from ${init.name}` : ''}`);
  // Ctrl-C or SIGTERM stops after the epoch in flight, and the model fitted so far is still written.
  const interrupt = new AbortController();
  const withdraw = whenStopAsked((signal) => {
    io.progress(`interrupted (${signal}): stopping after this epoch (the model fitted so far is still written to ${values.out}); interrupt again to quit now`);
    endsAsStopped(signal);
    interrupt.abort();
  });
  const fitting = fitExperienceModel(input, {
    buffer,
    backend,
    source: 'cli',
    bufferName: values.buffer,
    ...(init ? { init } : {}),
    fieldName,
    finish: interrupt.signal,
    onProgress: (p) => {
      if (p.phase === 'prepare' && p.done === p.total) io.progress(`posed ${p.total} transitions with their retrieved examples`);
      if (p.phase === 'train' && p.loss && (p.done === p.total || p.done % 200 === 1)) {
        const v = p.validation ? ` | held-out next-state F1 ${p.validation.nextStateF1.toFixed(3)}, action F1 ${p.validation.actionSetF1.toFixed(3)}, reward acc ${p.validation.rewardAccuracy.toFixed(3)}, done acc ${p.validation.doneAccuracy.toFixed(3)}` : '';
        io.progress(`epoch ${p.epoch}/${p.epochs} step ${p.done}/${p.total}: loss line ${p.loss.line.toFixed(4)} action ${p.loss.action.toFixed(4)} transition ${p.loss.transition.toFixed(4)}${v}`);
      }
    },
  }).finally(withdraw);
  const fitted = await fitting.catch((error: unknown) => {
    // Stopped before its first epoch was done: there is no model to keep.
    if (interrupt.signal.aborted && error === interrupt.signal.reason) return null;
    throw error;
  });
  if (fitted === null) {
    io.progress(`stopped before the first epoch: nothing was fitted, so ${values.out} was not written`);
    return;
  }
  const { bytes, record, fit } = fitted;
  fitted.model.dispose();
  // A fit of many minutes is not thrown away for want of space: kept elsewhere, and the command fails saying where.
  throwUnwritten([await keepResult(values.out, bytes, `--out ${values.out}`, fit.stopped ? 'the model fitted so far' : 'the fitted model')]);
  const last = fit.epochs[fit.epochs.length - 1];
  const done = fit.stopped ? ` (stopped after ${fit.epochs.length} of ${record.epochs} epochs; its training record says so)` : '';
  // The JSON result keeps the names this command has always printed (realTransitions, wallSeconds).
  const training = { buffer: values.buffer, realTransitions: record.transitions, validationTransitions: record.validationTransitions, k: record.k, epochs: record.epochs, seed: record.seed, rows: fit.rows, wallSeconds: record.seconds };
  io.progress(`wrote ${values.out} (${bytes.length} bytes)${done}`);
  const result = { env, out: values.out, bytes: bytes.length, backend, ...training, ...(fitted.init ? { init: fitted.init } : {}), ...(fit.stopped ? { stopped: true, stoppedAfter: fit.epochs.length } : {}), history: fit.epochs };
  if (values.json) io.result(result);
  else io.out(`${env}: fitted on ${fit.transitions} real transitions in ${fit.seconds.toFixed(1)} s on ${backend}; wrote ${values.out}${done}` + (last?.validation ? `; held-out next-state F1 ${last.validation.nextStateF1.toFixed(3)}` : ''));
}
