/**
 * A tiny `pretrain`, end to end in the system Chromium: stopped between two stages, then inside its
 * RL stage, and run again each time; the second run skips the finished stages, the third goes on
 * from the RL stage's checkpoint; every page it opened was a pretraining family's; its folder ends
 * with the four files the app ships, which `--policy pretrained` then plays.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { Task } from '../../../src/core/types.ts';
import { main } from '../../../src/cli/main.ts';
import { envSpec } from '../../../src/envs/registry.ts';
import { WebEnv } from '../../../src/envs/web/env.ts';
import { PRETRAINING_FAMILIES } from '../../../src/envs/web/generated/index.ts';
import { closePageHosts } from '../../../src/envs/web/hosts.ts';
import type { WebGoal } from '../../../src/envs/web/site.ts';
import { pretrain, PRETRAIN_WORK, type PretrainHooks } from '../../../src/jobs/pretrain.ts';
import type { PretrainCard } from '../../../src/jobs/pretrain-card.ts';
import type { Ledger, StageName } from '../../../src/jobs/pretrain-ledger.ts';
import { PRETRAIN_SPEC } from '../../../src/jobs/pretrain-spec.ts';
import { PRETRAINED_DIR_VARIABLE } from '../../../src/jobs/pretrained.ts';
import { parseSpec } from '../../../src/jobs/spec.ts';
import { useBackend } from '../../../src/platform/tf.ts';
import { loadStoreFile } from '../../../src/replay/file-store.ts';
import { capture } from '../../cli-io.ts';

afterAll(() => closePageHosts());

// The smallest run that still holds every claim: 4 seeded episodes are the fewest the mix gives all
// three agents (1.6 / 1.2 / 1.2 rounded by largest remainder); a budget of 100 real transitions is
// two whole iterations of 4 episodes (about 85) before the stop and a third, cut by the budget,
// after the resume; one evaluation episode and one episode of the policy's own are what those
// stages need to run and write their files.
const settings = parseSpec(PRETRAIN_SPEC, { seedEpisodes: 4, realBudget: 100, episodesPerIteration: 4, parallelEnvs: 2, evalEpisodes: 1, ownEpisodes: 1, checkpointEvery: 0 });

/** One run of the job; `stopWhen` aborts it at a stage's end or a progress line. */
async function run(out: string, stopWhen?: { stage?: StageName; line?: RegExp }) {
  const stop = new AbortController();
  const stages: string[] = [];
  const lines: string[] = [];
  const hooks: PretrainHooks = {
    signal: stop.signal,
    onStage: (stage, outcome) => {
      stages.push(`${stage} ${outcome}`);
      if (stage === stopWhen?.stage) stop.abort();
    },
    onProgress: (line) => {
      lines.push(line);
      if (stopWhen?.line?.test(line)) stop.abort();
    },
  };
  const result = await pretrain({ out, settings, backend: 'wasm' }, hooks);
  return { result, stages, lines };
}

const familyOf = (taskId: string): string => taskId.slice(0, taskId.indexOf(':'));

describe('pretrain', () => {
  it('stops between stages and inside RL, goes on where it stopped, plays only pretraining families, and writes what the app ships', async () => {
    await useBackend(['wasm']);
    const out = mkdtempSync(path.join(tmpdir(), 'dreamgym-pretrain-'));
    const played: Task[] = [];
    // Real transitions when the second run stopped (after its second iteration).
    const atStop: number[] = [];
    const reset = WebEnv.prototype.reset;
    const spy = vi.spyOn(WebEnv.prototype, 'reset').mockImplementation(function (this: WebEnv, task: Task) {
      played.push(task);
      return reset.call(this, task);
    });
    try {
      // Stopped once the model is fitted: the RL stage never starts.
      const first = await run(out, { stage: 'fit' });
      expect(first.result.stoppedIn).toBe('rl');
      expect(first.stages).toEqual(['seed ran', 'fit ran']);
      expect(existsSync(path.join(out, PRETRAIN_WORK.policy))).toBe(false);

      // Again: the two finished stages are skipped; stopped after RL's second iteration (the first one's checkpoint stays).
      const second = await run(out, { line: /\[3\/5 rl\]: iter 2:/ });
      expect(second.stages).toEqual(['seed skipped', 'fit skipped']);
      expect(second.result.stoppedIn).toBe('rl');
      expect(existsSync(path.join(out, PRETRAIN_WORK.checkpoint))).toBe(true);
      atStop.push(Number(/\[3\/5 rl\]: iter 2: (\d+)\//.exec(second.lines.join('\n'))?.[1]));

      // Again: RL goes on from its checkpoint, and the rest runs to the end.
      const third = await run(out);
      expect(third.stages).toEqual(['seed skipped', 'fit skipped', 'rl ran', 'own ran', 'refit ran']);
      expect(third.lines.join('\n')).toMatch(/\[3\/5 rl\]: resuming from work\/rl\.dgc: 1 iterations done/);
      expect(third.result.stoppedIn).toBeNull();
    } finally {
      spy.mockRestore();
    }
    expect(envSpec('web').description).not.toMatch(/Generated web apps/);

    // Every page any stage opened was a pretraining family's, on the pretraining site.
    expect(played.length).toBeGreaterThan(20);
    for (const task of played) {
      const goal = task.goal as WebGoal;
      expect([goal.site, PRETRAINING_FAMILIES.includes(goal.task as never)], task.id).toEqual(['generated', true]);
    }
    // And so is every transition the model learned from (the seeded ones and the policy's own).
    const data = await loadStoreFile(path.join(out, PRETRAIN_WORK.ownBuffer));
    const runs = new Set(data.transitions.map((t) => t.runId));
    expect(runs).toEqual(new Set(['pretrain-seed-1', 'pretrain-own-1']));
    expect(new Set(data.transitions.map((t) => familyOf(t.taskId))).size).toBeGreaterThan(1);
    for (const t of data.transitions) expect(PRETRAINING_FAMILIES, t.taskId).toContain(familyOf(t.taskId));

    const card = JSON.parse(readFileSync(path.join(out, 'card.json'), 'utf8')) as PretrainCard;
    expect(card.data.families).toEqual([...PRETRAINING_FAMILIES]);
    expect(card.data.seed.episodes).toBe(settings.seedEpisodes);
    expect(Object.keys(card.data.seed.byAgent).sort()).toEqual(['noisy', 'oracle', 'random']);
    for (const family of Object.keys(card.data.episodesByFamily)) expect(PRETRAINING_FAMILIES).toContain(family);
    // The resumed run added transitions to those of the two iterations before the stop, within the budget.
    expect(card.steps.rl.realTransitions).toBeGreaterThan(atStop[0] as number);
    expect(card.steps.rl.realTransitions).toBeLessThanOrEqual(settings.realBudget);
    for (const stage of ['seed', 'fit', 'rl', 'own', 'refit'] as const) expect(card.wallSeconds[stage], stage).toBeGreaterThan(0);
    expect(card.machine.cpus).toBeGreaterThan(0);
    expect(card.withinShippingLimit).toBe(true);
    expect(readFileSync(path.join(out, 'MODEL_CARD.md'), 'utf8')).toMatch(/Held out, never played: `cart`, `messaging`/);
    const ledger = JSON.parse(readFileSync(path.join(out, 'pretrain.json'), 'utf8')) as Ledger;
    expect(Object.keys(ledger.stages).sort()).toEqual(['fit', 'own', 'refit', 'rl', 'seed']);
    // The shipped model is the refitted one, which started from the first fit's.
    // Compared by digest: a deep equality over the megabytes of two Buffers took about 2 s of CPU.
    const sha = (file: string) => createHash('sha256').update(readFileSync(path.join(out, file))).digest('hex');
    expect(sha('model.dgx')).toBe(sha(PRETRAIN_WORK.refitModel));

    // The folder is what `pretrained` reads.
    const before = process.env[PRETRAINED_DIR_VARIABLE];
    process.env[PRETRAINED_DIR_VARIABLE] = out;
    try {
      const io = capture();
      expect(await main(['rollout', '--env', 'web', '--site', '@generated', '--policy', 'pretrained', '--episodes', '1', '--json'], io), io.stderr.join('\n')).toBe(0);
      expect(JSON.parse(io.stdout.join('\n'))).toMatchObject({ policy: path.join(out, 'policy.dgp'), episodes: 1 });
    } finally {
      if (before === undefined) delete process.env[PRETRAINED_DIR_VARIABLE];
      else process.env[PRETRAINED_DIR_VARIABLE] = before;
    }
  }, 240_000);
});
