/**
 * The JS heap of a page and of every worker it starts, sampled over a run through the DevTools
 * protocol (`Runtime.getHeapUsage`). `performance.memory` will not do: Chromium rounds it to 10 MB
 * steps in a page and does not offer it in a worker at all, and the app's trainer and experience
 * model live in workers. Playwright gives no CDP session for a worker, so the sampler attaches to
 * each worker target from the browser's session and speaks to it through
 * `Target.sendMessageToTarget` (the non-flattened protocol, which leaves Playwright's own sessions
 * alone).
 *
 * With `profile`, it also records a CPU profile of the page and of each worker from the moment it
 * attaches (a worker's first sampling interval is missed), returned by `stop` to save as
 * `.cpuprofile` files that Chrome DevTools opens.
 *
 * What it counts: V8's used heap of each isolate (JavaScript objects, strings, typed arrays'
 * headers). Typed arrays' and wasm memories' backing stores live outside it; tfjs's tensors are
 * reported by the benches that measure them (`memory().numBytes`).
 */
import type { Browser, Page } from 'playwright-core';

interface HeapUsage {
  usedSize: number;
}

export interface HeapFigures {
  intervalMs: number;
  samples: number;
  /** The highest sum over the page and the workers alive at one sample, MiB. */
  peakTotalMiB: number;
  peakPageMiB: number;
  /** Each worker's own peak, by its script's file name (`name#2` for a second worker of one script). */
  peakWorkerMiB: Record<string, number>;
  /** The peak total while each phase ran, where the caller says which phase runs (`phaseOf`). */
  peakTotalByPhaseMiB?: Record<string, number>;
}

/** With `profile`: each isolate's CPU profile (DevTools' Profile object), by the names above and `page`. */
export type CpuProfiles = Record<string, unknown>;

const MIB = 1024 * 1024;
const round = (bytes: number): number => Number((bytes / MIB).toFixed(1));

interface WorkerTarget {
  name: string;
  sessionId: string;
  peak: number;
  gone: boolean;
}

/**
 * Samples every `intervalMs` until `stop()`, which returns the peaks; `phaseOf`, when given, names
 * what the page is doing at each sample (null: nothing to attribute).
 */
export async function sampleHeap(browser: Browser, page: Page, options: { intervalMs?: number; phaseOf?: () => Promise<string | null>; profile?: boolean } = {}): Promise<{ stop: () => Promise<HeapFigures & { profiles?: CpuProfiles }> }> {
  const intervalMs = options.intervalMs ?? 250;
  const pageSession = await page.context().newCDPSession(page);
  const browserSession = await browser.newBrowserCDPSession();
  const workers = new Map<string, WorkerTarget>();
  const pending = new Map<string, (result: unknown) => void>();
  let nextId = 1;
  browserSession.on('Target.receivedMessageFromTarget', (event: { sessionId: string; message: string }) => {
    const reply = JSON.parse(event.message) as { id?: number; result?: unknown; error?: unknown };
    const key = `${event.sessionId}:${reply.id}`;
    const resolve = pending.get(key);
    if (!resolve) return;
    pending.delete(key);
    resolve(reply.result ?? null);
  });
  browserSession.on('Target.detachedFromTarget', (event: { sessionId: string }) => {
    for (const w of workers.values()) if (w.sessionId === event.sessionId) w.gone = true;
    for (const [key, resolve] of pending) if (key.startsWith(`${event.sessionId}:`)) resolve(null);
  });

  /** One DevTools command to a worker; null when it has gone or the command failed. */
  const toWorker = (session: string, method: string, params: object = {}): Promise<unknown> =>
    new Promise((resolve) => {
      const id = nextId++;
      pending.set(`${session}:${id}`, resolve);
      browserSession.send('Target.sendMessageToTarget', { sessionId: session, message: JSON.stringify({ id, method, params }) }).catch(() => {
        pending.delete(`${session}:${id}`);
        resolve(null);
      });
    });
  const workerHeap = (session: string) => toWorker(session, 'Runtime.getHeapUsage') as Promise<HeapUsage | null>;
  const startProfiler = async (send: (method: string, params?: object) => Promise<unknown>): Promise<void> => {
    await send('Profiler.enable');
    await send('Profiler.setSamplingInterval', { interval: 1000 });
    await send('Profiler.start');
  };
  if (options.profile) await startProfiler((method, params) => pageSession.send(method as 'Profiler.enable', params));

  const attachNewWorkers = async (): Promise<void> => {
    const { targetInfos } = (await browserSession.send('Target.getTargets')) as { targetInfos: { targetId: string; type: string; url: string }[] };
    for (const target of targetInfos) {
      if (target.type !== 'worker' || workers.has(target.targetId)) continue;
      const { sessionId } = (await browserSession.send('Target.attachToTarget', { targetId: target.targetId, flatten: false })) as { sessionId: string };
      const file = target.url.split('/').pop()?.split('?')[0] || 'worker';
      const base = file.replace(/-[\w-]{8}\.js$/, '.js'); // a built chunk's content hash says nothing
      const same = [...workers.values()].filter((w) => w.name === base || w.name.startsWith(`${base}#`)).length;
      workers.set(target.targetId, { name: same === 0 ? base : `${base}#${same + 1}`, sessionId, peak: 0, gone: false });
      if (options.profile) await startProfiler((method, params) => toWorker(sessionId, method, params));
    }
  };

  let samples = 0;
  let peakTotal = 0;
  let peakPage = 0;
  const byPhase = new Map<string, number>();
  const sample = async (): Promise<void> => {
    await attachNewWorkers();
    const phase = options.phaseOf ? await options.phaseOf() : null;
    const pageUsage = (await pageSession.send('Runtime.getHeapUsage')) as HeapUsage;
    let total = pageUsage.usedSize;
    peakPage = Math.max(peakPage, pageUsage.usedSize);
    for (const w of workers.values()) {
      if (w.gone) continue;
      const usage = await workerHeap(w.sessionId);
      if (!usage) continue;
      w.peak = Math.max(w.peak, usage.usedSize);
      total += usage.usedSize;
    }
    peakTotal = Math.max(peakTotal, total);
    if (phase !== null) byPhase.set(phase, Math.max(byPhase.get(phase) ?? 0, total));
    samples++;
  };

  let running = true;
  let failure: unknown = null;
  const loop = (async () => {
    while (running) {
      try {
        await sample();
      } catch (error) {
        // A page closing under a sample ends the sampling; anything else is the bench's failure.
        if (running) failure = error;
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  })();

  return {
    stop: async () => {
      running = false;
      await loop;
      if (failure) throw failure;
      const profiles: CpuProfiles = {};
      if (options.profile) {
        for (const w of workers.values()) {
          const stopped = w.gone ? null : ((await toWorker(w.sessionId, 'Profiler.stop')) as { profile?: unknown } | null);
          if (stopped?.profile) profiles[w.name] = stopped.profile;
        }
        profiles['page'] = ((await pageSession.send('Profiler.stop')) as { profile: unknown }).profile;
      }
      await Promise.allSettled([pageSession.detach(), browserSession.detach()]);
      return {
        intervalMs,
        samples,
        peakTotalMiB: round(peakTotal),
        peakPageMiB: round(peakPage),
        peakWorkerMiB: Object.fromEntries([...workers.values()].map((w) => [w.name, round(w.peak)])),
        ...(options.phaseOf ? { peakTotalByPhaseMiB: Object.fromEntries([...byPhase].map(([phase, bytes]) => [phase, round(bytes)])) } : {}),
        ...(options.profile ? { profiles } : {}),
      };
    },
  };
}
