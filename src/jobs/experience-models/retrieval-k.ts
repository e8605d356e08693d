/**
 * `k`, the real transitions retrieved from the buffer as examples for each prediction: one setting
 * with one bound for every model and every caller (the CLI's `--k`, the app's field). 0 is the
 * "without retrieval" ablation. tfjs-free.
 */
import * as v from 'valibot';
import { DEFAULT_K, MAX_K } from '../../replay/retrieval.ts';
import { integerIn } from '../bounds-spec.ts';
import type { ExperienceSetting } from './entry.ts';

export { DEFAULT_K, MAX_K };
export const MIN_K = 0;

/** `k`'s schema: its bound and default. */
export const K = v.optional(integerIn(MIN_K, MAX_K), DEFAULT_K);

export const K_SETTING: ExperienceSetting = {
  flag: 'k',
  label: 'Retrieved examples (k)',
  help: `real transitions retrieved as examples for each prediction (${MIN_K}–${MAX_K}; 0: without retrieval)`,
  value: 'N',
  input: 'number',
  schema: K,
};
