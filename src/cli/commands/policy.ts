/**
 * `policy …`: a policy file as files others can read. `export` writes its weights in the
 * safetensors layout (`model.safetensors`) beside `config.json` (the policy's card); `import`
 * turns the two back into a `.dgp`, checked as any policy file is.
 */
import { mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { UsageError } from '../../core/errors.ts';
import { readInputBytes } from '../../jobs/node-args.ts';
import { fileProblem, writeFileWhole } from '../../platform/files.ts';
import { SAFETENSORS_CONFIG_FILE, SAFETENSORS_WEIGHTS_FILE, policyFromSafetensors, policyToSafetensors } from '../../policy/policy-safetensors.ts';
import { checkInputFile, checkOutputPath, parseCommandArgs, refuseOverlaps } from '../args.ts';
import type { CommandIO } from '../io.ts';

export const POLICY_USAGE =
  'policy export FILE.dgp --format safetensors --out DIR [--json]\n' +
  '  policy import DIR --out FILE.dgp [--json]';

export async function policyCommand(io: CommandIO, argv: string[]): Promise<void> {
  const [sub, ...rest] = argv;
  switch (sub) {
    case 'export':
      return exportCommand(io, rest);
    case 'import':
      return importCommand(io, rest);
    default:
      throw new UsageError(sub === undefined ? 'policy needs a subcommand: export or import' : `unknown policy subcommand "${sub}"; use export or import`);
  }
}

/** The most a policy's config.json may be: its card and the names and shapes of its tensors. */
const CONFIG_MAX_BYTES = 4 * 1024 * 1024;

function one(positionals: string[], what: string): string {
  if (positionals.length !== 1) throw new UsageError(`give one ${what}, got ${positionals.length}${positionals.length > 0 ? `: ${positionals.join(' ')}` : ''}`);
  return positionals[0] as string;
}

async function exportCommand(io: CommandIO, argv: string[]): Promise<void> {
  const { values, positionals } = parseCommandArgs({ args: argv, allowPositionals: true, strict: true, options: { format: { type: 'string' }, out: { type: 'string' }, json: { type: 'boolean', default: false } } });
  const file = one(positionals, 'FILE.dgp');
  if (values.format !== 'safetensors') throw new UsageError(values.format === undefined ? '--format safetensors is required (the one format policy export writes)' : `--format ${values.format}: policy export writes safetensors`);
  if (values.out === undefined) throw new UsageError('--out DIR is required');
  await checkInputFile(file, 'the policy file');
  const existing = await stat(values.out).catch(() => null);
  if (existing && !existing.isDirectory()) throw new UsageError(`--out ${values.out} is a file; name a directory`);
  const weightsPath = path.join(values.out, SAFETENSORS_WEIGHTS_FILE);
  const configPath = path.join(values.out, SAFETENSORS_CONFIG_FILE);
  // Files this command did not make are not replaced unasked: an export goes into a new or empty-of-them folder.
  for (const written of [weightsPath, configPath]) {
    if (await stat(written).catch(() => null)) throw new UsageError(`--out ${values.out} already holds ${path.basename(written)}; name a new folder, or remove it first`);
  }
  await refuseOverlaps([{ flag: 'the policy file', path: file }], [{ flag: '--out', path: weightsPath }, { flag: '--out', path: configPath }]);
  // The folder first, so a run that cannot write says so before any work, in words (it was a stack trace).
  try {
    await mkdir(values.out, { recursive: true });
  } catch (error) {
    throw new UsageError(`--out ${values.out}: the folder cannot be made: ${fileProblem(error)}`);
  }
  const { weights, config } = policyToSafetensors(await readInputBytes(file, 'the policy file'));
  await writeFileWhole(weightsPath, weights);
  await writeFileWhole(configPath, `${JSON.stringify(config, null, 2)}\n`);
  const summary = { from: file, out: values.out, files: [weightsPath, configPath], tensors: config.weights.length, bytes: weights.length, env: config.env, algorithm: config.algorithm };
  if (values.json) io.result(summary);
  else io.out(`wrote ${weightsPath} (${config.weights.length} float32 tensors, ${weights.length} bytes) and ${configPath}`);
}

async function importCommand(io: CommandIO, argv: string[]): Promise<void> {
  const { values, positionals } = parseCommandArgs({ args: argv, allowPositionals: true, strict: true, options: { out: { type: 'string' }, json: { type: 'boolean', default: false } } });
  const dir = one(positionals, 'DIR (with model.safetensors and config.json)');
  if (values.out === undefined) throw new UsageError('--out FILE.dgp is required');
  if (!values.out.endsWith('.dgp')) throw new UsageError(`--out must name a .dgp file, got "${values.out}"`);
  const weightsPath = path.join(dir, SAFETENSORS_WEIGHTS_FILE);
  const configPath = path.join(dir, SAFETENSORS_CONFIG_FILE);
  await checkInputFile(weightsPath, 'the weights');
  await checkInputFile(configPath, 'the config');
  await checkOutputPath(values.out, 'out');
  await refuseOverlaps([{ flag: 'the weights', path: weightsPath }, { flag: 'the config', path: configPath }], [{ flag: '--out', path: values.out }]);
  const dgp = policyFromSafetensors(await readInputBytes(weightsPath, 'the weights'), new TextDecoder().decode(await readInputBytes(configPath, 'the config', CONFIG_MAX_BYTES)));
  await writeFileWhole(values.out, dgp, `--out ${values.out}`);
  if (values.json) io.result({ from: dir, out: values.out, bytes: dgp.length });
  else io.out(`wrote ${values.out} (${dgp.length} bytes)`);
}
