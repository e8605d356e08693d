/**
 * `experience eval`: the fidelity of an experience model on held-out real transitions. The held-out
 * transitions are played fresh in the real environment on its held-out split (oracle and random
 * episodes, as the buffer is seeded), so none of them is in the buffer the model retrieves from.
 */
import { parseArgs } from 'node:util';
import { UsageError } from '../../core/errors.ts';
import { ENVIRONMENTS, envSpec } from '../../envs/registry.ts';
import { heldoutTransitions, measureFidelity } from '../../experience/fidelity.ts';
import { promptTokenStats } from '../../experience/tokens.ts';
import { parseMix } from '../../replay/seed.ts';
import { intOption, requireOption } from '../args.ts';
import { EXPERIENCE_OPTIONS, EXPERIENCE_USAGE, createExperienceModel, experienceK, openBufferFile } from '../experience-options.ts';
import type { CommandIO } from '../io.ts';

export const EXPERIENCE_EVAL_USAGE =
  'experience eval --env <shop|home> ' + EXPERIENCE_USAGE + '\n' +
  '        --buffer FILE.jsonl --heldout N [--mix oracle=0.5,random=0.5] [--seed S] [--json]';

export async function experienceCommand(io: CommandIO, argv: string[]): Promise<void> {
  const [sub, ...rest] = argv;
  if (sub !== 'eval') throw new UsageError(sub === undefined ? 'experience needs a subcommand: eval' : `unknown experience subcommand "${sub}"; use eval`);
  const { values } = parseArgs({
    args: rest,
    options: {
      ...EXPERIENCE_OPTIONS,
      env: { type: 'string' },
      buffer: { type: 'string' },
      heldout: { type: 'string' },
      mix: { type: 'string', default: 'oracle=0.5,random=0.5' },
      seed: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
    strict: true,
  });
  const spec = envSpec(requireOption(values.env, 'env', ENVIRONMENTS.map((e) => e.name)));
  if (values.heldout === undefined) throw new UsageError('--heldout N is required (held-out real transitions to predict)');
  const heldoutCount = intOption(values.heldout, 'heldout', 0, 1);
  const seed = intOption(values.seed, 'seed', 0);
  const mix = parseMix(values.mix);
  const model = createExperienceModel(values);
  const k = experienceK(values);
  const buffer = await openBufferFile(values.buffer);
  const offline = await buffer.store.count({ env: spec.name, source: 'real' });
  if (offline === 0) throw new UsageError(`${values.buffer} holds no real ${spec.name} transitions; seed it with: buffer seed --env ${spec.name} --episodes 400 --out ${values.buffer}`);

  const { heldout, episodes } = await heldoutTransitions(spec, heldoutCount, mix, seed);
  io.progress(`${spec.name}: ${heldout.length} held-out transitions from ${episodes} ${spec.testSplit} episodes; ${offline} offline real transitions to retrieve from (k=${k}); model ${model.name}`);
  const { report, inputs } = await measureFidelity({
    model,
    buffer,
    k,
    heldout,
    onProgress: (done, total) => {
      if (done % 256 < 32 || done === total) io.progress(`predicted ${done}/${total}`);
    },
  });
  const tokens = promptTokenStats(inputs);
  const stats = model.stats();
  const result = {
    env: spec.name,
    experience: model.name,
    k,
    buffer: { file: values.buffer, realTransitions: offline },
    heldout: { split: spec.testSplit, episodes, transitions: heldout.length, mix: values.mix, seed },
    ...report,
    prompt: {
      tokenizer: 'llama-3',
      framing: 'single',
      meanTokensPerStep: tokens.mean,
      p95TokensPerStep: tokens.p95,
      maxTokensPerStep: tokens.max,
    },
    model: stats,
  };
  if (values.json) io.result(result);
  else
    io.out(
      `${spec.name} ${model.name} on ${heldout.length} held-out transitions: next-state F1 ${report.nextStateF1}, action-set F1 ${report.actionSetF1}, ` +
        `reward accuracy ${report.rewardAccuracy} (MAE ${report.rewardMae}), done accuracy ${report.doneAccuracy}, ε_R ${report.epsilonR}, ε_P ${report.epsilonP}, ` +
        `invalid ${report.invalidOutputRate}, ${report.transitionsPerSecond} transitions/s; prompt ${result.prompt.meanTokensPerStep} tokens/step (k=${k})`,
    );
}
