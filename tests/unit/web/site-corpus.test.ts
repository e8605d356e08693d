/**
 * A folder of site folders is one environment (envs/web/site-corpus.ts). Its tasks are the sites'
 * own under a prefixed id, played on the env of their site; what that env learns at reset (a
 * page's instruction, from its instruction hook) reaches the corpus's task, which the policy, the
 * proposer of texts to type and the buffer read. Site folders are made here.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { expandActions } from '../../../src/core/queries.ts';
import { closePageHosts } from '../../../src/envs/web/hosts.ts';
import { loadSite } from '../../../src/envs/web/node/site-folder.ts';

const root = mkdtempSync(path.join(tmpdir(), 'dreamgym-corpus-'));
afterAll(async () => {
  await closePageHosts();
  rmSync(root, { recursive: true, force: true });
});

/** A site whose page says the instruction (a quoted name to type) only once it has loaded. */
function site(name: string, who: string): void {
  const dir = path.join(root, name);
  mkdirSync(dir);
  writeFileSync(
    path.join(dir, 'sign-in.html'),
    `<!doctype html><html lang="en"><head><title>${name}</title></head><body><p id="task">Sign in as "${who}".</p><label>User <input id="user"></label><button onclick="window.DONE = document.getElementById('user').value === '${who}'">Sign in</button></body></html>`,
  );
  writeFileSync(
    path.join(dir, 'site.json'),
    JSON.stringify({
      name,
      tasks: [{ id: 'sign-in', page: 'sign-in.html' }],
      seeds: { train: [0, 2], test: [2, 4] },
      maxSteps: 4,
      hooks: { instruction: "document.getElementById('task').textContent", reward: 'window.DONE ? 1 : 0', done: 'window.DONE === true' },
    }),
  );
}

describe('a corpus of site folders', () => {
  site('alpha', 'marco');
  site('beta', 'ines');
  const corpus = loadSite(root);

  it("gives each task the instruction its page says at reset, so the policy is offered the text to type", async () => {
    const tasks = corpus.tasks('train');
    expect(tasks.map((t) => t.id)).toEqual(['alpha/sign-in:0', 'alpha/sign-in:1', 'beta/sign-in:0', 'beta/sign-in:1']);
    // Known only to the page: empty until the task plays.
    expect(tasks.every((t) => t.instruction === '')).toBe(true);
    const env = corpus.createEnv();
    try {
      for (const [task, who] of [
        [tasks[0]!, 'marco'],
        [tasks[2]!, 'ines'],
      ] as const) {
        const first = await env.reset(task);
        expect(task.instruction).toBe(`Sign in as "${who}".`);
        expect(first.text).toContain(`instruction: Sign in as "${who}".`);
        const typing = first.actions.find((a) => a.startsWith('type['));
        expect(typing).toBeDefined();
        const offered = expandActions(first, task.instruction, corpus.proposeQueries);
        expect(offered).toContain(typing!.replace('...', who));
        const typed = await env.step(typing!.replace('...', who));
        expect(typed.observation.text).toContain(`User | value: ${who}`);
        const won = await env.step(first.actions.find((a) => a.includes('Sign in]'))!);
        expect(won.reward).toBe(1);
        expect(won.done).toBe(true);
      }
    } finally {
      await env.close?.();
    }
  }, 60_000);
});
