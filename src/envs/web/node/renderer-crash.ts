/**
 * Why a page's renderer died, in words. Playwright's `crash` event says only that it did; the
 * browser's DevTools `Target.targetCrashed` says how the process ended, which tells a page that
 * ran out of memory (its JavaScript heap reached PAGE_HEAP_MB) from one that crashed otherwise.
 * A call into a crashed page never answers by itself (the DevTools call stays pending until the
 * browser closes), so the tab rejects its calls with this message at once.
 */
import type { Browser, CDPSession } from 'playwright-core';
import { PAGE_HEAP_MB } from '../../../platform/chromium.ts';
import { PageError } from '../host.ts';

interface Crashed {
  status: string;
  errorCode: number;
}

/** The signal Chromium's renderer ends itself with when V8 reports its heap full (an immediate crash: a trap). */
const SIGTRAP = 5;
const SIGKILL = 9;
/** How long a tab waits for the browser's word on a crash after Playwright's event (they come in either order). */
const STATUS_WAIT_MS = 1_000;

/** What the browser said of each target that crashed, by target id. */
export interface CrashWatch {
  /** The crash's description, once the browser says how the target ended (or after STATUS_WAIT_MS without it). */
  describe(targetId: string | null): Promise<PageError>;
}

const watches = new WeakMap<Browser, Promise<CrashWatch>>();

/** One watch per browser: a browser-wide DevTools session that hears every target's crash. */
export function crashWatch(browser: Browser): Promise<CrashWatch> {
  let watch = watches.get(browser);
  if (!watch) {
    watch = startWatch(browser);
    watches.set(browser, watch);
  }
  return watch;
}

async function startWatch(browser: Browser): Promise<CrashWatch> {
  const crashes = new Map<string, Crashed>();
  const waiting = new Map<string, () => void>();
  let session: CDPSession | null = null;
  try {
    session = await browser.newBrowserCDPSession();
    session.on('Target.targetCrashed', (event: { targetId: string; status: string; errorCode: number }) => {
      crashes.set(event.targetId, { status: String(event.status).slice(0, 40), errorCode: Number(event.errorCode) });
      waiting.get(event.targetId)?.();
    });
    await session.send('Target.setDiscoverTargets', { discover: true });
  } catch {
    // Another build, a browser closing: crashes are still told, without the cause.
    session = null;
  }
  return {
    async describe(targetId) {
      if (session !== null && targetId !== null && !crashes.has(targetId)) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, STATUS_WAIT_MS);
          waiting.set(targetId, () => {
            clearTimeout(timer);
            resolve();
          });
        });
        waiting.delete(targetId);
      }
      const crashed = targetId === null ? undefined : crashes.get(targetId);
      if (targetId !== null) crashes.delete(targetId);
      return crashError(crashed);
    },
  };
}

/** The error a crashed page's episode ends with. */
export function crashError(crashed: Crashed | undefined): PageError {
  if (crashed === undefined) return new PageError('page-crash', 'the page crashed (its renderer ended; a page that runs out of memory does so)');
  if (crashed.status.includes('oom') || (crashed.status === 'crashed' && crashed.errorCode === SIGTRAP)) {
    return new PageError('page-crash', `the page ran out of memory (limit ${PAGE_HEAP_MB} MB of JavaScript heap per page) and its renderer crashed`);
  }
  if (crashed.status === 'killed' || crashed.errorCode === SIGKILL) {
    return new PageError('page-crash', `the page's renderer was killed (${crashed.status}, signal ${crashed.errorCode}): the machine may be out of memory`);
  }
  return new PageError('page-crash', `the page's renderer crashed (${crashed.status}, code ${crashed.errorCode})`);
}
