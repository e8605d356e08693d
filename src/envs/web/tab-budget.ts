/**
 * How many web pages may play at once: each lane is a browser tab, and tabs are what a web run's
 * memory is made of (issue 60: 32 parallel tabs took 5.5 GB and a machine with less was pushed into
 * swap or killed). The lanes asked for are lowered to what the free memory holds, never below one.
 */
/**
 * What one tab of the bundled suite costs, in bytes. From issue 60's measurement (32 tabs, 5.5 GB:
 * about 172 MB a tab), rounded up for the page's own growth during an episode.
 */
export const TAB_BYTES = 180 * 1024 * 1024;

/** The lanes to play and, when fewer than asked, the sentence that says why. */
export interface TabBudget {
  lanes: number;
  notice: string | null;
}

/** The lanes `freeBytes` holds at `tabBytes` each, at most `asked` and at least one. */
export function tabsThatFit(asked: number, freeBytes: number, tabBytes: number = TAB_BYTES): TabBudget {
  const fit = Number.isFinite(freeBytes) && freeBytes > 0 ? Math.floor(freeBytes / tabBytes) : asked;
  const lanes = Math.max(1, Math.min(asked, fit));
  if (lanes >= asked) return { lanes: asked, notice: null };
  const free = `${(freeBytes / 1024 ** 3).toFixed(1)} GB`;
  return {
    lanes,
    notice: `playing ${lanes} ${lanes === 1 ? 'page' : 'pages'} at once, not ${asked}: each takes about ${Math.round(tabBytes / 1024 ** 2)} MB and ${free} is free`,
  };
}

/**
 * The memory this process may still use, where it can tell: Node's `process.availableMemory()`
 * (what the machine has free, or what its cgroup, a container's limit, leaves). Infinity elsewhere:
 * this module runs in the app's trainer worker too, where pages are frames of the app itself, not
 * tabs of a browser of their own, and `node:os` cannot be loaded (importing it broke the worker).
 */
export function freeMemoryBytes(): number {
  const node = (globalThis as { process?: { availableMemory?: () => number } }).process;
  const available = node?.availableMemory?.();
  return typeof available === 'number' && Number.isFinite(available) && available > 0 ? available : Number.POSITIVE_INFINITY;
}

/** The lanes for `asked` envs of `env`: capped by memory for web pages, as asked for every other env. */
export function lanesFor(env: string, asked: number, say?: (text: string) => void, freeBytes: () => number = freeMemoryBytes): number {
  if (env !== 'web' || asked <= 1) return asked;
  const budget = tabsThatFit(asked, freeBytes());
  if (budget.notice !== null) say?.(budget.notice);
  return budget.lanes;
}
