/** The real environments by name. Adding one means adding its spec here and nowhere else. */
import { UsageError } from '../core/errors.ts';
import type { SplitInfo } from '../core/types.ts';
import { homeSpec } from './home/index.ts';
import { shopSpec } from './shop/index.ts';
import type { EnvSpec } from './spec.ts';

export const ENVIRONMENTS: readonly EnvSpec[] = [shopSpec, homeSpec];

export function envSpec(name: string): EnvSpec {
  const spec = ENVIRONMENTS.find((e) => e.name === name);
  if (!spec) throw new UsageError(`unknown environment "${name}"; use one of: ${ENVIRONMENTS.map((e) => e.name).join(', ')}`);
  return spec;
}

/** What the CLI and the app show about an environment: plain, cloneable data. */
export interface EnvSummary {
  name: string;
  description: string;
  actionSyntax: EnvSpec['actionSyntax'];
  testSplit: string;
  splits: SplitInfo[];
}

export function describeEnv(spec: EnvSpec): EnvSummary {
  return { name: spec.name, description: spec.description, actionSyntax: spec.actionSyntax, testSplit: spec.testSplit, splits: [...spec.splits] };
}

export function splitNames(spec: EnvSpec): string[] {
  return spec.splits.map((s) => s.name);
}
