/** The neural model's fitting defaults, tfjs-free so that specs and the page can read them. */
import { DEFAULT_K } from '../../replay/retrieval.ts';

/**
 * `transitionEvery`: the transition head has one row per transition where the line head has about
 * 48, and the joint steps follow the line head's count, so stepping it at every joint step showed
 * each of its rows about 43 times an epoch and was half of a fit's time. Every second step halves
 * that with held-out fidelity as good on shop and home (README, *Benchmarks*, `bench -- neural`).
 */
export const DEFAULT_FIT = { k: DEFAULT_K, epochs: 6, batchSize: 256, learningRate: 0.003, seed: 1, validationShare: 0.1, eventWeight: 1, transitionEvery: 2 } as const;
