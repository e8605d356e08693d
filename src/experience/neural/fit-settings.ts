/** The neural model's fitting defaults, tfjs-free so that specs and the page can read them. */
import { DEFAULT_K } from '../../replay/retrieval.ts';

export const DEFAULT_FIT = { k: DEFAULT_K, epochs: 6, batchSize: 256, learningRate: 0.003, seed: 1, validationShare: 0.1, eventWeight: 1 } as const;
