/**
 * The real environments by name. Adding one means adding its folder's definition to ENVIRONMENTS
 * and nowhere else (docs/architecture.md, "Adding an environment").
 */
import { UsageError } from '../core/errors.ts';
import { excerpt } from '../core/text.ts';
import type { SplitInfo } from '../core/types.ts';
import { homeEnvironment } from './home/index.ts';
import { shopEnvironment } from './shop/index.ts';
import { webEnvironment } from './web/index.ts';
import type { EnvDefinition, EnvSpec } from './spec.ts';
import { withStepLimit } from './step-limit.ts';

/** An environment's definition as the registry hands it out: every env it makes has the step limit. */
export function registered(definition: EnvDefinition): EnvSpec {
  return { ...definition, createEnv: (options) => withStepLimit(definition.createEnv(options), options?.maxSteps ?? definition.maxSteps) };
}

const registry: EnvSpec[] = [shopEnvironment, homeEnvironment, webEnvironment].map(registered);

/** Every environment this build knows, in registration order (a live view: see registerEnvironment). */
export const ENVIRONMENTS: readonly EnvSpec[] = registry;

/**
 * Adds an environment at run time, for an embedder or a test (the built-in ones are the list
 * above). Returns a function that takes it out again. A name already taken is refused.
 */
export function registerEnvironment(definition: EnvDefinition): () => void {
  if (registry.some((e) => e.name === definition.name)) throw new UsageError(`an environment named "${definition.name}" is registered already`);
  const spec = registered(definition);
  registry.push(spec);
  return () => {
    const at = registry.indexOf(spec);
    if (at >= 0) registry.splice(at, 1);
  };
}

/**
 * Puts `definition` in place of the environment of the same name until the returned function is
 * called (the CLI's `--site DIR` puts a user's site in place of the bundled web suite).
 */
export function replaceEnvironment(definition: EnvDefinition): () => void {
  const at = registry.findIndex((e) => e.name === definition.name);
  if (at < 0) throw new UsageError(`no environment named "${definition.name}" to replace`);
  const previous = registry[at] as EnvSpec;
  const spec = registered(definition);
  registry[at] = spec;
  return () => {
    const now = registry.indexOf(spec);
    if (now >= 0) registry[now] = previous;
  };
}

export function envSpec(name: string): EnvSpec {
  const spec = ENVIRONMENTS.find((e) => e.name === name);
  if (!spec) throw new UsageError(`unknown environment ${excerpt(name, 60)}; use one of: ${ENVIRONMENTS.map((e) => e.name).join(', ')}`);
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
