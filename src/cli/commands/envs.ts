import { ENVIRONMENTS } from '../../envs/registry.ts';
import type { CommandIO } from '../io.ts';

export const ENVS_USAGE = 'envs [--json]';

export function envsCommand(io: CommandIO, json: boolean): void {
  const envs = ENVIRONMENTS.map((spec) => ({
    name: spec.name,
    description: spec.description,
    actionSyntax: spec.actionSyntax,
    testSplit: spec.testSplit,
    splits: Object.fromEntries(spec.splits.map((s) => [s.name, s.size])),
  }));
  if (json) {
    io.result({ envs });
    return;
  }
  for (const e of envs) {
    const splits = Object.entries(e.splits).map(([n, s]) => `${n} ${s}`).join(', ');
    io.out(`${e.name.padEnd(6)} ${e.description}\n       splits: ${splits}`);
  }
}
