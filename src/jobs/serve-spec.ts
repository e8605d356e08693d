/**
 * The spec of serving experience models over HTTP (`serve`): kNN, or a fitted neural model beside
 * it (an LLM is served by its own server), on a loopback port unless the host opens it to a room.
 * The models' settings come from their registry entries.
 */
import * as v from 'valibot';
import { integerIn } from './bounds-spec.ts';
import { apiKeySchema } from '../experience/llm/api-key.ts';
import { DEFAULT_RATE_LIMIT, isWebOrigin } from '../experience/llm/chat-server.ts';
import { experienceModel, settingsEntries } from './experience-models/registry.ts';

export const DEFAULT_PORT = 8088;
export const DEFAULT_HOST = '127.0.0.1';
/** The room's key, where no flag gives it: kept off the command line, where any user's `ps` shows it. */
export const ROOM_KEY_ENV = 'DREAMGYM_ROOM_KEY';
/** What the room's own key must be: long enough not to be guessed, short enough for any header. */
export const ROOM_KEY_BOUNDS = { min: 8, max: 512 };

const serveEntries = {
  /** 0: any free port (the tests' and scripts' way to avoid a clash). */
  port: v.optional(integerIn(0, 65_535), DEFAULT_PORT),
  host: v.optional(v.pipe(v.string(), v.minLength(1, 'must name a host')), DEFAULT_HOST),
  /** Test only: one fault per request, in order (experience/llm/chat-server.ts parseFaults reads it). */
  faults: v.optional(v.string()),
  /** Required of every client (Authorization: Bearer); required of the host beyond loopback. */
  apiKey: v.optional(apiKeySchema(ROOM_KEY_BOUNDS)),
  /** Origins whose pages may call the server besides loopback ones, comma-separated (`*`: any). */
  allowOrigin: v.optional(v.pipe(v.string(), v.check((text) => text.split(',').every((o) => o.trim() === '*' || isWebOrigin(o.trim())), 'must list origins such as https://app.example (scheme, host, optional port), comma-separated'))),
  /** Requests per second per client address; 0: no limit. */
  rateLimit: v.optional(integerIn(0, 1_000_000), DEFAULT_RATE_LIMIT),
  /** The app's address the room's participants open; the join link is printed with it. */
  appUrl: v.optional(v.pipe(v.string(), v.check((text) => isHttpUrl(text), 'must be the http(s) address the participants open the app at, e.g. https://dreamgym.example/'))),
};

/** The models `serve` answers with: kNN, or a fitted neural model with kNN beside it (an LLM is served by its own server). */
export const SERVED_KINDS = ['knn', 'neural'] as const;
export type ServedKind = (typeof SERVED_KINDS)[number];

/** `serve --experience knn` or `--experience neural --model FILE.dgx`. */
export const serveSpec = (kind: ServedKind) => v.strictObject({ ...servedSettings(kind), ...serveEntries });

/** The model's settings but its prediction workers: serve answers one request at a time, with no batch to split. */
function servedSettings(kind: ServedKind): ReturnType<typeof settingsEntries> {
  const { workers: _workers, ...settings } = settingsEntries(experienceModel(kind, 'node'));
  return settings;
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * The link a room's host shares: the app's Experience view with the room's endpoint, model and key
 * in the fragment (a fragment never reaches a server; the app reads it and drops it from the address bar).
 * Carrying the key is the point of it: it is how a participant gets the key without typing it. It
 * is printed once, to the host who set the key, and is shared only with the room.
 */
export function roomLink(appUrl: string, room: { endpoint: string; model: string; apiKey?: string | undefined }): string {
  const url = new URL(appUrl);
  const params = new URLSearchParams({ room: room.endpoint, model: room.model, ...(room.apiKey !== undefined ? { key: room.apiKey } : {}) });
  url.hash = `experience?${params.toString()}`;
  return url.toString();
}

/** Hosts only this machine can reach. */
export const isLoopbackHost = (host: string): boolean => host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);

export type ServeSpec = v.InferOutput<ReturnType<typeof serveSpec>>;
