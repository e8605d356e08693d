/**
 * The curriculum's variation of web tasks: new seeds of the parent's split, and for the app-like
 * tasks the parent's entities recombined into another goal, which the page and the oracle play.
 */
import { createHash } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { Rng } from '../../../src/core/rng.ts';
import type { Task } from '../../../src/core/types.ts';
import { runEpisode } from '../../../src/envs/episode.ts';
import { envSpec } from '../../../src/envs/registry.ts';
import { closePageHosts } from '../../../src/envs/web/hosts.ts';
import type { WebGoal } from '../../../src/envs/web/site.ts';
import { APP_TASKS } from '../../../src/envs/web/suite/apps.ts';

afterAll(() => closePageHosts());

const spec = envSpec('web');
const trainTask = (id: string): Task => spec.tasks('train').find((t) => t.id === `${id}:3`) as Task;

describe('varying a web task', () => {
  it('keeps every instance of the app-like tasks as it was before recombination existed (results measured on them stay valid)', () => {
    // The digest of these instances at c268bac, before the generators were split into world and goal.
    const hash = createHash('sha256');
    for (const id of Object.keys(APP_TASKS).sort()) {
      for (const [split, seeds] of [['train', [0, 1, 2, 77, 4999]], ['test', [100000, 100013, 100029]]] as const) {
        for (const seed of seeds) hash.update(JSON.stringify(APP_TASKS[id]?.generate(seed, split)));
      }
    }
    expect(hash.digest('hex')).toBe('220fddd9cdafffc033677d75aec3ac368fd7a431b81bbe0da4c864c3c1485b3f');
  });

  it('an app-like task becomes another seed of its split, or its own entities recombined into another goal', () => {
    const parent = trainTask('inbox-reply');
    const parentGoal = parent.goal as WebGoal;
    const rng = new Rng('web-variation');
    const children = Array.from({ length: 40 }, (_, i) => spec.variation?.vary(parent, [], 'sideways', rng.fork(String(i))) as Task);
    for (const child of children) {
      const goal = child.goal as WebGoal;
      expect(child.origin).toBe('generated');
      expect(child.instruction).not.toBe(parent.instruction);
      expect(goal.split).toBe('train');
      expect(goal.task).toBe('inbox-reply');
    }
    const sameWorld = (t: Task) => JSON.stringify((t.goal as WebGoal & { data: { mails: unknown } }).data.mails) === JSON.stringify((parentGoal.data as { mails: unknown }).mails);
    const recombined = children.filter(sameWorld);
    expect(recombined.length).toBeGreaterThan(5);
    expect(children.length - recombined.length).toBeGreaterThan(5);
    // A recombined goal names an e-mail of the parent's inbox.
    for (const child of recombined) expect(child.instruction).toMatch(/^Reply to the e-mail from .+ about ".+" with ".+"\.$/);
  });

  it('a single widget only gets new seeds, and a held-out task is never varied', () => {
    const widget = trainTask('click-button');
    const child = spec.variation?.vary(widget, [], 'sideways', new Rng('w')) as Task;
    expect((child.goal as WebGoal).seed).not.toBe((widget.goal as WebGoal).seed);
    const heldOut = spec.tasks('test')[0] as Task;
    expect(spec.variation?.vary(heldOut, [], 'sideways', new Rng('w'))).toBeNull();
  });

  it('the page plays a recombined task and the oracle wins it', async () => {
    const env = spec.createEnv();
    const rng = new Rng('recombined-play');
    for (const id of ['inbox-forward', 'admin-role', 'shop-buy', 'forum-reply', 'feed-follow']) {
      const parent = trainTask(id);
      let child: Task | null = null;
      for (let i = 0; i < 20 && !child; i++) {
        const made = spec.variation?.vary(parent, [], 'sideways', rng.fork(`${id}:${i}`)) as Task;
        if ((made.goal as WebGoal).seed === (parent.goal as WebGoal).seed) child = made;
      }
      expect(child, id).not.toBeNull();
      const record = await runEpisode(env, spec.createOracle(), child as Task);
      expect(record.won, `${id}: ${child?.instruction}`).toBe(true);
    }
  });
});
