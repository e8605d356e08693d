/**
 * The settings of the experience model a job dreams with (`train --mode dream|s2r`,
 * `experience eval`, `serve`), by backend: each backend takes only its own, so a setting given to
 * one that does not read it is refused instead of ignored. tfjs-free.
 */
import * as v from 'valibot';
import type { Framing } from '../experience/prompt.ts';
import { DEFAULT_K, MAX_K } from '../replay/retrieval.ts';
import { integerIn, oneOf } from './bounds-spec.ts';

/**
 * The experience models, by the one name the CLI, the app and results use for each: the learned
 * tfjs model, the kNN floor, an LLM behind an OpenAI-compatible endpoint, an LLM in the browser.
 */
export const EXPERIENCE_KINDS = ['neural', 'knn', 'http', 'webllm'] as const;
export type ExperienceKind = (typeof EXPERIENCE_KINDS)[number];
/** The ones that run under Node (WebLLM needs a browser's WebGPU). */
export const EXPERIENCE_BACKENDS = ['neural', 'knn', 'http'] as const satisfies readonly ExperienceKind[];
export type ExperienceBackend = (typeof EXPERIENCE_BACKENDS)[number];
/** Names the CLI still accepts for a kind: `llm` was the CLI's name for `http` before the two agreed. */
export const EXPERIENCE_ALIASES: Readonly<Record<string, ExperienceBackend>> = { llm: 'http' };
export const FRAMINGS: readonly Framing[] = ['multi-round', 'single'];
export const DEFAULT_FRAMING: Framing = 'multi-round';

/** Requests to an LLM endpoint in flight at once, at most. */
export const MAX_CONCURRENCY = 256;
/** An LLM request's timeout at most: a day (a timer cannot wait past 2^31 − 1 ms, about 24.8 days). */
export const MAX_TIMEOUT_MS = 86_400_000;

/** Real transitions retrieved per prediction; 0 is the "without retrieval" ablation. */
export const K = v.optional(integerIn(0, MAX_K), DEFAULT_K);

/**
 * Each backend's fields. The LLM client's concurrency and timeout are left out when not given, so
 * the client's own defaults apply.
 */
export const EXPERIENCE_ENTRIES = {
  /** `model`: the .dgx file. */
  neural: { model: v.string(), k: K },
  knn: { k: K },
  /** `model`: the name the endpoint serves. */
  http: {
    endpoint: v.string(),
    model: v.string(),
    apiKey: v.optional(v.string()),
    framing: v.optional(oneOf(FRAMINGS), DEFAULT_FRAMING),
    concurrency: v.optional(integerIn(1, MAX_CONCURRENCY)),
    timeoutMs: v.optional(integerIn(1, MAX_TIMEOUT_MS)),
    k: K,
  },
} as const;
