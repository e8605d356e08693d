/**
 * The algorithm settings an environment's spec asks for (EnvSpec.training), checked against the
 * algorithm's own settings. The Trainer starts from the algorithm's defaults, then these, then the
 * caller's own settings, so the CLI and the app train with what the baseline runs measured.
 */
import { UsageError } from '../core/errors.ts';
import { boundedText } from '../core/text.ts';
import { showValue } from '../core/weight-file.ts';
import type { EnvSpec } from '../envs/spec.ts';
import { defaultConfig, type AlgoConfig, type AlgoName } from '../rl/config.ts';
import type { OfflineMode, TrainMode } from './modes.ts';
import { OFFLINE_DEFAULTS, type OfflineSettings } from './offline/config.ts';

/** The settings `spec` overrides for `algo` in `mode` (empty when it has none). */
export function envSettings(spec: Pick<EnvSpec, 'name' | 'training'>, algo: AlgoName, mode: TrainMode = 'real'): Partial<AlgoConfig> {
  const settings = { ...spec.training?.all?.[algo], ...(mode === 'dream' ? spec.training?.dream?.[algo] : {}) };
  const defaults: Record<string, unknown> = { ...defaultConfig(algo) };
  for (const [key, value] of Object.entries(settings)) {
    const expected = defaults[key];
    if (key === 'algo' || expected === undefined || (expected !== null && typeof value !== typeof expected)) {
      throw new UsageError(`${spec.name}'s training settings give ${algo} ${setting(key, value)}, which is not one of its ${typeof expected === 'undefined' ? 'settings' : `${typeof expected} settings`}`);
    }
  }
  return settings as Partial<AlgoConfig>;
}

/** The offline baseline settings `spec` gives `mode` (empty when it gives none), checked against the mode's own. */
export function envOfflineSettings(spec: Pick<EnvSpec, 'name' | 'training'>, mode: OfflineMode): OfflineSettings {
  const settings = spec.training?.offline?.[mode] ?? {};
  const defaults: Record<string, unknown> = { ...OFFLINE_DEFAULTS[mode] };
  for (const [key, value] of Object.entries(settings)) {
    if (typeof defaults[key] !== 'number' || typeof value !== 'number') {
      throw new UsageError(`${spec.name}'s training settings give ${mode} ${setting(key, value)}, which is not one of its number settings`);
    }
  }
  return settings as OfflineSettings;
}

/** One setting as a message quotes it: a site's own file names it, so bounded and escaped. */
function setting(key: string, value: unknown): string {
  return `"${boundedText(key, 60)}: ${showValue(value)}"`;
}
