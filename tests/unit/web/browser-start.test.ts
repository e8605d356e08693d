/**
 * A browser that cannot start is not a page that failed: the env throws it (BrowserStartError)
 * instead of ending the episode with it, and the failed start is not kept, so the next reset
 * launches the browser again.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { Task } from '../../../src/core/types.ts';
import { WebEnv } from '../../../src/envs/web/env.ts';
import { BrowserStartError, PageError } from '../../../src/envs/web/host.ts';
import { closePageHosts, hostFor } from '../../../src/envs/web/hosts.ts';
import { parseSiteDefinition, siteTasks } from '../../../src/envs/web/site.ts';

const FIXTURES = fileURLToPath(new URL('../fixtures/web-reliability/', import.meta.url));
const site = parseSiteDefinition(JSON.parse(readFileSync(path.join(FIXTURES, 'site.json'), 'utf8')));
const twins = siteTasks(site, 'train', {}, 'web').find((t) => t.id === 'twins:0') as Task;

afterAll(() => closePageHosts());

describe('a browser that cannot start', () => {
  it('is thrown by reset with the launch\'s message, not turned into an episode error; the next reset tries again', async () => {
    const env = new WebEnv('web', site, () => hostFor({ root: FIXTURES }, { loadMs: 2000, callMs: 2000 }));
    const before = process.env.CHROMIUM_PATH;
    process.env.CHROMIUM_PATH = '/bin/false';
    let failed: unknown;
    try {
      failed = await env.reset({ ...twins }).catch((error: unknown) => error);
    } finally {
      if (before === undefined) delete process.env.CHROMIUM_PATH;
      else process.env.CHROMIUM_PATH = before;
    }
    expect(failed).toBeInstanceOf(BrowserStartError);
    expect(failed).not.toBeInstanceOf(PageError);
    expect((failed as BrowserStartError).code).toBe('browser-start');
    expect(String((failed as Error).message)).toMatch(/^could not start the system Chromium for web pages \(\/bin\/false\): .+/);
    // With the system Chromium back, the same env plays: neither the host nor the browser kept the failure.
    const first = await env.reset({ ...twins });
    expect(first.text).toContain('url: /twins.html');
    await env.close();
  });
});
