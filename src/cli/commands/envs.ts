import { parseCommandArgs } from '../args.ts';
import { ENVIRONMENTS, describeEnv } from '../../envs/registry.ts';
import type { CommandIO } from '../io.ts';

export const ENVS_USAGE = 'envs [--json]';

export function envsCommand(io: CommandIO, argv: string[]): void {
  const { json } = parseCommandArgs({ args: argv, options: { json: { type: 'boolean', default: false } }, strict: true }).values;
  // Splits as {name: size}: the shape a script reading `envs --json` wants.
  const envs = ENVIRONMENTS.map(describeEnv).map((e) => ({ ...e, splits: Object.fromEntries(e.splits.map((s) => [s.name, s.size])) }));
  if (json) {
    io.result({ envs });
    return;
  }
  for (const e of envs) {
    const splits = Object.entries(e.splits).map(([n, s]) => `${n} ${s}`).join(', ');
    io.out(`${e.name.padEnd(6)} ${e.description}\n       splits: ${splits}`);
  }
}
