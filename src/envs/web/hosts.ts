/**
 * One page host per site per process, shared by every env of the site (each env has its own tab),
 * started on first use. `#page-host` is the Node host under Node (the system Chromium) and the
 * app's frame host in a browser, as `#tf-platform` picks the tfjs platform.
 */
import { pageHostFactory } from '#page-host';
import { DEFAULT_PAGE_TIMEOUTS, sourceKey, type HostOptions, type PageHost, type PageTimeouts, type SiteSource } from './host.ts';

const hosts = new Map<string, Promise<PageHost>>();

function keyOf(site: SiteSource, timeouts: PageTimeouts, options: HostOptions): string {
  return `${sourceKey(site)}|${timeouts.loadMs}|${timeouts.callMs}|${options.visible === true ? 'visible' : 'unseen'}`;
}

/**
 * The host of `site` with these watchdogs, started once (a failed start is not kept: the next call
 * tries again). A host that cannot start because its browser cannot (BrowserStartError) leaves
 * nothing running behind it, so the command that met it can stop and its process end.
 */
export function hostFor(site: SiteSource, timeouts: PageTimeouts = DEFAULT_PAGE_TIMEOUTS, options: HostOptions = {}): Promise<PageHost> {
  const key = keyOf(site, timeouts, options);
  let host = hosts.get(key);
  if (!host) {
    const starting = pageHostFactory(site, timeouts, options);
    host = starting;
    hosts.set(key, starting);
    starting.catch(() => {
      if (hosts.get(key) === starting) hosts.delete(key);
    });
  }
  return host;
}

/** Closes every site's host and the browser behind them (the CLI calls it before it exits). */
export async function closePageHosts(): Promise<void> {
  const open = [...hosts.values()];
  hosts.clear();
  await Promise.all(open.map((h) => h.then((host) => host.close(), () => undefined)));
  await pageHostFactory.shutdown?.();
}
