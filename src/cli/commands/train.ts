import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { UsageError } from '../../core/errors.ts';
import { ENVIRONMENTS } from '../../envs/registry.ts';
import { exportPolicy } from '../../policy/policy-file.ts';
import { ALGORITHMS, LR_SCHEDULES, type AlgoConfig, type AlgoName } from '../../rl/config.ts';
import { parseBackend, useBackend } from '../../runtime/tf.ts';
import { TRAIN_MODES, Trainer, type TrainMode } from '../../train/trainer.ts';
import { intOption, numberOption, requireOption } from '../args.ts';
import type { CommandIO } from '../io.ts';

export const TRAIN_USAGE =
  'train --env <shop|home> --mode real --algo <ppo|grpo> --real-budget N [--seed S] [--out FILE.dgp]\n' +
  '        [--lr RATE] [--lr-schedule constant|linear] [--eval-every ITERATIONS] [--eval-episodes N (per evaluation during training; the final one uses\n' +
  '        the whole held-out split unless --final-eval-episodes N)] [--backend wasm|cpu] [--history FILE.json] [--json]';

export async function trainCommand(io: CommandIO, argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      env: { type: 'string' },
      mode: { type: 'string', default: 'real' },
      algo: { type: 'string' },
      'real-budget': { type: 'string' },
      seed: { type: 'string' },
      out: { type: 'string' },
      'eval-every': { type: 'string' },
      'eval-episodes': { type: 'string' },
      'final-eval-episodes': { type: 'string' },
      lr: { type: 'string' },
      'lr-schedule': { type: 'string' },
      backend: { type: 'string', default: 'wasm' },
      history: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
    strict: true,
  });
  const env = requireOption(values.env, 'env', ENVIRONMENTS.map((e) => e.name));
  const mode = requireOption(values.mode, 'mode', TRAIN_MODES) as TrainMode;
  const algo = requireOption(values.algo, 'algo', ALGORITHMS) as AlgoName;
  if (values['real-budget'] === undefined) throw new UsageError('--real-budget is required (real environment transitions, e.g. 80000)');
  const realBudget = intOption(values['real-budget'], 'real-budget', 0, 1);
  const seed = intOption(values.seed, 'seed', 0);
  if (values.out !== undefined && !values.out.endsWith('.dgp')) throw new UsageError(`--out must name a .dgp file, got "${values.out}"`);
  const learningRate = numberOption(values.lr, 'lr', 1e-7, 1);
  const schedule = values['lr-schedule'] === undefined ? undefined : requireOption(values['lr-schedule'], 'lr-schedule', LR_SCHEDULES);
  const algoConfig: Partial<AlgoConfig> = {
    ...(learningRate !== undefined ? { learningRate } : {}),
    ...(schedule !== undefined ? { learningRateSchedule: schedule as AlgoConfig['learningRateSchedule'] } : {}),
  };
  const backend = await useBackend([parseBackend(values.backend)]);
  const trainer = new Trainer({
    env,
    mode,
    algo,
    realBudget,
    seed,
    backend,
    algoConfig,
    evalEvery: intOption(values['eval-every'], 'eval-every', 0),
    ...(values['eval-episodes'] !== undefined ? { evalEpisodes: intOption(values['eval-episodes'], 'eval-episodes', 0, 1) } : {}),
    ...(values['final-eval-episodes'] !== undefined ? { finalEvalEpisodes: intOption(values['final-eval-episodes'], 'final-eval-episodes', 0, 1) } : {}),
  });
  io.progress(`train ${env}/${mode}/${algo} on ${backend}: budget ${realBudget} real transitions, seed ${seed}`);
  const result = await trainer.run({
    onIteration: (m) => {
      const evalText = m.eval ? ` | held-out success ${(m.eval.successRate * 100).toFixed(1)}% score ${m.eval.meanScore.toFixed(1)}` : '';
      io.progress(
        `iter ${m.iteration}: ${m.realTransitions}/${realBudget} real, success ${(m.successRate * 100).toFixed(1)}%, ` +
          `score ${m.meanScore.toFixed(1)}, entropy ${m.entropy.toFixed(2)}, kl ${m.approxKl.toFixed(4)}, ${Math.round(m.samplesPerSecond)} samples/s${evalText}`,
      );
    },
  });
  const evaluation = result.eval && {
    split: result.eval.split,
    episodes: result.eval.episodes,
    successRate: result.eval.successRate,
    meanScore: result.eval.meanScore,
    actionsDigest: result.eval.actionsDigest,
  };
  if (values.out) {
    const bytes = await exportPolicy(trainer.policy, {
      env,
      algorithm: algo,
      backend,
      training: { mode, seed, realBudget, realTransitions: result.realTransitions, syntheticTransitions: 0, iterations: result.iterations, wallSeconds: result.wallSeconds },
      evaluation: evaluation ?? null,
      createdAt: new Date().toISOString(),
    });
    await writeFile(values.out, bytes);
    io.progress(`wrote ${values.out} (${bytes.length} bytes)`);
  }
  if (values.history) {
    await writeFile(values.history, `${JSON.stringify(result, null, 1)}\n`);
  }
  const summary = {
    env,
    mode,
    algo,
    backend,
    realTransitions: result.realTransitions,
    syntheticTransitions: result.syntheticTransitions,
    wallSeconds: Number(result.wallSeconds.toFixed(2)),
    eval: evaluation,
  };
  if (values.json) io.result(summary);
  else
    io.out(
      `${env} ${algo} (${mode}, ${backend}): ${result.realTransitions} real transitions in ${result.wallSeconds.toFixed(1)} s; ` +
        (evaluation ? `held-out ${evaluation.split}: success ${(evaluation.successRate * 100).toFixed(1)}%, score ${evaluation.meanScore.toFixed(1)}` : 'stopped before evaluation'),
    );
}
