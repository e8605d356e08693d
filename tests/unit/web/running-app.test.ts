/**
 * A running app trains by its address (docs/web.md, "A running app as a site"): the CLI plays the
 * example app (examples/apps/crm, started here on a free port) through its site.json with
 * `--site-url`, trains on it in real mode and rolls a random policy out, and a reset the app cannot
 * answer stops the command with the task, the address and the reason. The sizes are the least that
 * show each step works (a budget of 8 real steps, one epoch, one evaluation episode, two random
 * ones): each command launches Chromium and plays the app's pages, which is what this file costs.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCrm, type CrmServer } from '../../../examples/apps/crm/server.ts';
import { main } from '../../../src/cli/main.ts';
import { capture } from '../../cli-io.ts';

const SITE = ['--env', 'web', '--site', 'examples/apps/crm'];

let crm: CrmServer;
const dir = mkdtempSync(path.join(tmpdir(), 'dreamgym-crm-'));
beforeAll(async () => {
  crm = await startCrm({ port: 0 });
});
afterAll(async () => {
  await crm.close();
  rmSync(dir, { recursive: true, force: true });
});

async function cli(args: string[]): Promise<{ code: number; stdout: string[]; stderr: string }> {
  const io = capture();
  const code = await main(args, io);
  return { code, stdout: io.stdout, stderr: io.stderr.join('\n') };
}

describe('the example app as a site', () => {
  it('trains in real mode with GRPO, shows the trained policy step by step, then rolls a random policy out', { timeout: 180_000 }, async () => {
    const policy = path.join(dir, 'crm.dgp');
    const trained = await cli(['train', ...SITE, '--site-url', crm.url, '--mode', 'real', '--algo', 'grpo', '--real-budget', '8', '--set', 'tasksPerIteration=1,groupSize=2,parallelEnvs=2,epochs=1', '--final-eval-episodes', '1', '--backend', 'cpu', '--seed', '1', '--out', policy, '--json']);
    expect(trained.code, trained.stderr).toBe(0);
    const result = JSON.parse(trained.stdout.at(-1) as string) as { env: string; mode: string; realTransitions: number; eval: { episodes: number } };
    expect(result).toMatchObject({ env: 'web', mode: 'real', eval: { episodes: 1 } });
    expect(result.realTransitions).toBeGreaterThan(0);
    expect(result.realTransitions).toBeLessThanOrEqual(8);

    // The docs' last step: the trained policy on the app, shown step by step (a trace report).
    const trace = path.join(dir, 'trace');
    const shown = await cli(['rollout', ...SITE, '--site-url', crm.url, '--policy', policy, '--episodes', '1', '--trace', trace, '--json']);
    expect(shown.code, shown.stderr).toBe(0);
    expect(JSON.parse(shown.stdout.at(-1) as string)).toMatchObject({ episodes: 1, trace: { episodes: 1 } });
    const html = readFileSync(path.join(trace, 'index.html'), 'utf8');
    expect(html).toMatch(/<img[^>]+src="data:image\/png;base64,/);
    expect(html).toMatch(/probability/);

    const rolled = await cli(['rollout', ...SITE, '--site-url', crm.url, '--policy', 'random', '--episodes', '2', '--json']);
    expect(rolled.code, rolled.stderr).toBe(0);
    expect(JSON.parse(rolled.stdout.at(-1) as string)).toMatchObject({ env: 'web', policy: 'random', split: 'test', episodes: 2 });
  });

  it('stops with the reset that could not reach the app, naming the task and the address', async () => {
    const gone = await startCrm({ port: 0 });
    await gone.close();
    const rolled = await cli(['rollout', ...SITE, '--site-url', gone.url, '--policy', 'random', '--episodes', '1']);
    expect(rolled.code).toBe(1);
    expect(rolled.stderr).toMatch(new RegExp(`^error: site "crm", task "find-contact": the reset POST ${gone.url.replace(/\./g, '\\.')}__reset could not reach the app \\(.*\\); is it running at `, 'm'));
    expect(rolled.stdout).toEqual([]);
  });
});
