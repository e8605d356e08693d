/**
 * An LLM downloaded once and run in the browser on the GPU with WebLLM. Its engine must live on the
 * page (app/experience/webllm.ts builds it there), so no job builds it: it has no `build`.
 */
import * as v from 'valibot';
import type { ExperienceModelEntry } from './entry.ts';

export const webllmExperience: ExperienceModelEntry = {
  kind: 'webllm',
  label: 'WebLLM',
  help: 'a small model downloaded once and run in this browser on the GPU',
  runsIn: ['page'],
  settings: {
    modelId: { flag: 'model-id', label: 'Model', help: 'the WebLLM model the page loaded', value: 'ID', input: 'text', schema: v.pipe(v.string(), v.trim(), v.nonEmpty('must name the WebLLM model the page loaded')) },
  },
};
