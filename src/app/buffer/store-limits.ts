/**
 * The Buffer view's cap and real-eviction choice, kept in localStorage so they hold across reloads.
 * The replay worker applies them to its store; the trainer worker, which writes a dream run's
 * synthetic transitions to the same database, gets them with the run's request.
 */
import type { StoreLimits } from '../../replay/store.ts';

const LIMITS_KEY = 'dreamgym.buffer.limits';

/** The saved limits, or none (no cap, real transitions never evicted) when nothing usable is saved. */
export function savedStoreLimits(): StoreLimits {
  try {
    const saved = JSON.parse(localStorage.getItem(LIMITS_KEY) ?? 'null') as { cap?: unknown; evictReal?: unknown } | null;
    const cap = typeof saved?.cap === 'number' && Number.isInteger(saved.cap) && saved.cap > 0 ? saved.cap : null;
    return { cap, evictReal: saved?.evictReal === true };
  } catch {
    return { cap: null, evictReal: false };
  }
}

export function saveStoreLimits(limits: StoreLimits): void {
  localStorage.setItem(LIMITS_KEY, JSON.stringify(limits));
}
