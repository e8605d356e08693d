/**
 * The spec of serving an experience model over HTTP (`serve`): the kNN model (an LLM is served by
 * its own server) on a loopback port. tfjs-free.
 */
import * as v from 'valibot';
import { integerIn } from './bounds-spec.ts';
import { EXPERIENCE_ENTRIES } from './experience-spec.ts';

export const DEFAULT_PORT = 8088;
export const DEFAULT_HOST = '127.0.0.1';

export const SERVE_SPEC = v.strictObject({
  ...EXPERIENCE_ENTRIES.knn,
  /** 0: any free port (the tests' and scripts' way to avoid a clash). */
  port: v.optional(integerIn(0, 65_535), DEFAULT_PORT),
  host: v.optional(v.pipe(v.string(), v.minLength(1, 'must name a host')), DEFAULT_HOST),
  /** Test only: one fault per request, in order (experience/llm/chat-server.ts parseFaults reads it). */
  faults: v.optional(v.string()),
});

export type ServeSpec = v.InferOutput<typeof SERVE_SPEC>;
