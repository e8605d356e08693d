/**
 * The one way to make an experience model from a choice: its entry's `build`, over settings its
 * spec checked. The CLI, the workers and the experiments call this; none builds a model itself.
 */
import { UsageError } from '../../core/errors.ts';
import type { ExperienceModel } from '../../experience/types.ts';
import type { BuildContext } from './entry.ts';
import { experienceModel } from './registry.ts';

/** What a caller chose: the kind and its settings (as the entry's spec checked them). */
export interface ExperienceChoice {
  kind: string;
  /** Absent: the model's defaults (a model with a required setting refuses it). */
  settings?: Readonly<Record<string, unknown>> | undefined;
}

/** Needs the tfjs backend started first for a tfjs model (its tensors stay on it). */
export async function createExperienceModel(choice: ExperienceChoice, context: BuildContext): Promise<ExperienceModel> {
  const entry = experienceModel(choice.kind, context.runtime);
  if (!entry.build) throw new UsageError(`the ${entry.kind} experience model is built on the app's page, not here`);
  return entry.build(choice.settings ?? {}, context);
}
