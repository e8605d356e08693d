/**
 * The spec of a run that dreams (`train --mode dream|s2r`): the train spec's settings for the mode
 * and the dream, and the chosen experience model's own (from its registry entry). Only what that
 * mode and model read, so a setting that would be ignored is refused.
 */
import * as v from 'valibot';
import { UsageError } from '../core/errors.ts';
import type { RlMode } from '../train/modes.ts';
import { experienceKinds, experienceModel, settingsEntries } from './experience-models/registry.ts';
import { common, dreaming, TRAIN_SPECS } from './train-spec.ts';

/** The spec of an RL run in `mode`, dreaming (modes dream and s2r) with the experience model `kind`; the offline modes' are `TRAIN_SPECS.bc` and `.dpo`. */
export function trainSpec(mode: RlMode, kind: string | undefined) {
  if (mode === 'real') return TRAIN_SPECS.real;
  if (kind === undefined) throw new UsageError(`--mode ${mode} needs --experience (one of: ${experienceKinds('node').join(', ')})`);
  return v.strictObject({ ...common(mode), ...dreaming(mode), ...settingsEntries(experienceModel(kind, 'node')) });
}
