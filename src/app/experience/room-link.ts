/**
 * The link a workshop room's host shares (`serve --app-url`, jobs/serve-spec.ts `roomLink`):
 * `#experience?room=<endpoint>&model=<name>&key=<key>`, read back. Pure, so it is tested in Node.
 */
import type { RoomLink } from './experience-state.ts';

/** The room a hash names, or null (another hash, or a room whose endpoint is not an http(s) URL). */
export function readRoomLink(hash: string): RoomLink | null {
  const match = /^#?experience\?(.*)$/.exec(hash);
  if (!match) return null;
  const params = new URLSearchParams(match[1]);
  const endpoint = params.get('room');
  if (!endpoint) return null;
  try {
    const url = new URL(endpoint);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  } catch {
    return null;
  }
  const key = params.get('key');
  return { endpoint, model: params.get('model') || 'knn', ...(key ? { apiKey: key } : {}) };
}
