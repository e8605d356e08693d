/**
 * The spec of serving an experience model over HTTP (`serve`): the kNN model (an LLM is served by
 * its own server) on a loopback port. tfjs-free.
 */
import * as v from 'valibot';
import { integerIn } from './bounds-spec.ts';
import { DEFAULT_RATE_LIMIT } from '../experience/llm/chat-server.ts';
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
  /** Required of every client (Authorization: Bearer); required of the host beyond loopback. */
  apiKey: v.optional(v.pipe(v.string(), v.minLength(8, 'must be at least 8 characters'), v.maxLength(512))),
  /** Origins whose pages may call the server besides loopback ones, comma-separated (`*`: any). */
  allowOrigin: v.optional(v.pipe(v.string(), v.check((text) => text.split(',').every((o) => o.trim() === '*' || isOrigin(o.trim())), 'must list origins such as https://app.example (scheme, host, optional port), comma-separated'))),
  /** Requests per second per client address; 0: no limit. */
  rateLimit: v.optional(integerIn(0, 1_000_000), DEFAULT_RATE_LIMIT),
});

/** `https://host[:port]` and nothing more: what a browser sends as Origin. */
function isOrigin(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === text;
  } catch {
    return false;
  }
}

/** Hosts only this machine can reach. */
export const isLoopbackHost = (host: string): boolean => host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);

export type ServeSpec = v.InferOutput<typeof SERVE_SPEC>;
