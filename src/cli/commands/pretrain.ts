/**
 * `pretrain`: the experience model and the policy pretrained on the generated web apps of the
 * pretraining families (jobs/pretrain.ts), into a folder the app can ship (public/pretrained/web/).
 * It takes no --site, --tasks or --env: the world it plays is fixed by the job.
 */
import { stat } from 'node:fs/promises';
import { UsageError } from '../../core/errors.ts';
import { pretrain } from '../../jobs/pretrain.ts';
import { PRETRAIN_MIX, PRETRAIN_RECOMMENDED, PRETRAIN_SPEC } from '../../jobs/pretrain-spec.ts';
import { readInputBytes } from '../../jobs/node-args.ts';
import { parseMix } from '../../replay/seed.ts';
import { parseBackend, useBackend } from '../../platform/tf.ts';
import { flagNamer, numberFlags, parseCommandArgs, parseFlags, stringFlags } from '../args.ts';
import type { CommandIO } from '../io.ts';
import { endsAsStopped, whenStopAsked } from '../stop-signals.ts';

const r = PRETRAIN_RECOMMENDED;

export const PRETRAIN_USAGE =
  'pretrain --out DIR [--seed 1] [--seed-episodes 24] [--mix ' + PRETRAIN_MIX + '] [--epochs 1] [--k 3] [--real-budget 300]\n' +
  '        [--episodes-per-iteration 8] [--parallel-envs 4] [--eval-episodes 6] [--own-episodes 4 (0: no own steps, no refit)] [--refit-epochs 1]\n' +
  '        [--checkpoint-every 30] [--held-out FIGURES.json] [--backend wasm|cpu] [--json]\n' +
  `        (the defaults make a test-sized run of a minute or two; the real run: --seed-episodes ${r.seedEpisodes} --epochs ${r.epochs} --real-budget ${r.realBudget}\n` +
  `        --episodes-per-iteration ${r.episodesPerIteration} --parallel-envs ${r.parallelEnvs} --eval-episodes ${r.evalEpisodes} --own-episodes ${r.ownEpisodes} --refit-epochs ${r.refitEpochs}, hours)`;

/** Held-out figures are a report, not data: a file far larger is not one. */
const MAX_HELD_OUT_BYTES = 1024 * 1024;

export async function pretrainCommand(io: CommandIO, argv: string[]): Promise<void> {
  const { values } = parseCommandArgs({
    args: argv,
    options: {
      out: { type: 'string' },
      seed: { type: 'string' },
      'seed-episodes': { type: 'string' },
      mix: { type: 'string' },
      epochs: { type: 'string' },
      k: { type: 'string' },
      'real-budget': { type: 'string' },
      'episodes-per-iteration': { type: 'string' },
      'parallel-envs': { type: 'string' },
      'eval-episodes': { type: 'string' },
      'own-episodes': { type: 'string' },
      'refit-epochs': { type: 'string' },
      'checkpoint-every': { type: 'string' },
      'held-out': { type: 'string' },
      backend: { type: 'string', default: 'wasm' },
      json: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values.out === undefined) throw new UsageError('--out DIR is required (the folder the weights, the card and the stages\' files go to; a stopped run\'s folder goes on where it stopped)');
  const input = {
    ...numberFlags(values, {
      seed: 'seed',
      seedEpisodes: 'seed-episodes',
      epochs: 'epochs',
      k: 'k',
      realBudget: 'real-budget',
      episodesPerIteration: 'episodes-per-iteration',
      parallelEnvs: 'parallel-envs',
      evalEpisodes: 'eval-episodes',
      ownEpisodes: 'own-episodes',
      refitEpochs: 'refit-epochs',
      checkpointEvery: 'checkpoint-every',
    }),
    ...stringFlags(values, { mix: 'mix' }),
  };
  const settings = parseFlags(PRETRAIN_SPEC, input, flagNamer(), 'to pretrain');
  parseMix(settings.mix);
  const found = await stat(values.out).catch(() => null);
  if (found !== null && !found.isDirectory()) throw new UsageError(`--out ${values.out} is a file; name a folder (made if missing)`);
  const heldOut = values['held-out'] === undefined ? undefined : await readHeldOut(values['held-out']);
  const backend = await useBackend([parseBackend(values.backend)]);
  io.progress(`pretrain into ${values.out} on ${backend}, seed ${settings.seed}: the generated apps of the pretraining families only`);
  // Ctrl-C or SIGTERM stops at the next point the stage in flight can stop at; finished stages stay.
  const interrupt = new AbortController();
  const withdraw = whenStopAsked((signal) => {
    io.progress(`interrupted (${signal}): stopping the stage in flight (finished stages, and the RL stage's last checkpoint, are kept in ${values.out}); interrupt again to quit now`);
    endsAsStopped(signal);
    interrupt.abort();
  });
  const result = await pretrain({ out: values.out, settings, backend, ...(heldOut !== undefined ? { heldOut } : {}) }, { signal: interrupt.signal, onProgress: (line) => io.progress(line) }).finally(withdraw);
  if (result.card === null || result.files === null) {
    if (values.json) io.result({ out: values.out, stopped: true, stoppedIn: result.stoppedIn });
    return;
  }
  const { card, files } = result;
  if (values.json) io.result({ out: values.out, ...files, wallSeconds: card.wallSeconds, data: card.data, steps: card.steps, withinShippingLimit: card.withinShippingLimit });
  else {
    const rl = card.steps.rl.eval;
    io.out(
      `pretrained on ${card.data.seed.transitions} seeded and ${card.data.own?.transitions ?? 0} own transitions of ${card.data.families.join(', ')}, ${card.steps.rl.realTransitions} real RL transitions` +
        `${rl ? ` (greedy ${rl.split}: ${(rl.successRate * 100).toFixed(1)}%)` : ''} in ${card.wallSeconds.total.toFixed(1)} s; wrote ${files.policy}, ${files.model}, ${files.card}, ${files.modelCard}`,
    );
  }
}

/** `--held-out FILE.json`: figures measured on the held-out families by another command, for the card. */
async function readHeldOut(path: string): Promise<unknown> {
  const bytes = await readInputBytes(path, '--held-out', MAX_HELD_OUT_BYTES);
  try {
    return JSON.parse(new TextDecoder().decode(bytes)) as unknown;
  } catch (error) {
    throw new UsageError(`--held-out ${path} is not JSON (${(error as Error).message.slice(0, 120)}); give the --json output of a rollout or an experiment on --site @generated-held-out`);
  }
}
