/**
 * Bring your own demonstrations (issue 27): a team records a few episodes on its own pages (a site
 * folder with a site.json, no oracle), exports them as JSONL, and trains from them with the CLI:
 * behaviour cloning, the experience model, and a dream grounded on them, with no real RL.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { main } from '../../../src/cli/main.ts';
import { useSite } from '../../../src/jobs/site.ts';
import type { Agent, Observation, Task } from '../../../src/core/types.ts';
import { runEpisode } from '../../../src/envs/episode.ts';
import { envSpec } from '../../../src/envs/registry.ts';
import { transitionLine } from '../../../src/replay/jsonl.ts';
import { episodeTransitions } from '../../../src/replay/seed.ts';
import { capture } from '../../cli-io.ts';

const SITE = 'examples/sites/page-globals';

/** A person who reads the instruction: clicks the colour it names, or types the word it quotes and sends it. */
class Person implements Agent {
  readonly name = 'person';
  private instruction = '';
  reset(task: Task, first: Observation): void {
    this.instruction = /^instruction: (.*)$/m.exec(first.text)?.[1] ?? task.instruction;
  }
  act(observation: Observation): string {
    const colour = /Click the (\w+) button/.exec(this.instruction)?.[1];
    const word = /Type "(\w+)"/.exec(this.instruction)?.[1];
    const pick = (test: (a: string) => boolean): string => {
      const found = observation.actions.find(test);
      if (!found) throw new Error(`no action for "${this.instruction}" in ${observation.actions.join(', ')}`);
      return found;
    };
    if (colour) return pick((a) => new RegExp(`^click\\[#\\d+ ${colour}\\]$`).test(a));
    const typed = /textbox: #\d+ Answer \| value: (\w+)/.exec(observation.text)?.[1];
    // A person types the word into the field's template (`type[#1 Answer | ...]`), as the Play view does.
    return typed === word ? pick((a) => /^click\[#\d+ Send\]$/.test(a)) : pick((a) => a.startsWith('type[')).replace(/\| \.\.\.\]$/, `| ${word}]`);
  }
}

async function cli(args: string[]): Promise<Record<string, unknown>> {
  const io = capture();
  const code = await main(args, io);
  if (code !== 0) throw new Error(`cli ${args.join(' ')} exited ${code}: ${io.stderr.join('\n')}`);
  return JSON.parse(io.stdout.at(-1) as string) as Record<string, unknown>;
}

/** Plays the person on the site's first train instances and writes what the app's Record switch would export. */
async function recordDemonstrations(file: string, episodes: number): Promise<{ transitions: number; won: number }> {
  const restore = useSite(SITE, []);
  const lines: string[] = [];
  let won = 0;
  try {
    const spec = envSpec('web');
    const env = spec.createEnv();
    try {
      for (const [i, task] of spec.tasks('train').slice(0, episodes).entries()) {
        const record = await runEpisode(env, new Person(), { ...task });
        if (record.won) won++;
        for (const t of episodeTransitions(record, 'demo-web-team', `demo-web-team/${i}`, 0)) lines.push(transitionLine(t));
      }
    } finally {
      await env.close?.();
    }
  } finally {
    restore();
  }
  writeFileSync(file, lines.join(''));
  return { transitions: lines.length, won };
}

describe('a team\'s own demonstrations on its own pages', () => {
  it('imported as JSONL, they train BC, fit the experience model and ground a dream, with no real RL', { timeout: 300_000 }, async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'dreamgym-own-demos-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const demos = path.join(dir, 'demos.jsonl');
    const store = path.join(dir, 'buffer.jsonl');
    const model = path.join(dir, 'model.dgx');
    // Sizes: every page load is Chromium's work. Eight demonstrations hold both of the site's tasks; the
    // evaluations and the dream are a few episodes each, as many as show each step ran on the site.
    const recorded = await recordDemonstrations(demos, 8);
    expect(recorded.won).toBe(8);

    const imported = await cli(['buffer', 'import', demos, '--out', store, '--json']);
    expect(imported).toMatchObject({ accepted: recorded.transitions, rejected: 0 });

    const site = ['--env', 'web', '--site', SITE];
    const bc = await cli(['train', ...site, '--mode', 'bc', '--buffer', store, '--final-eval-episodes', '6', '--json']);
    expect(bc).toMatchObject({ env: 'web', mode: 'bc', realTransitions: 0, eval: { split: 'test', episodes: 6 } });

    const fit = await cli(['experience', 'fit', ...site, '--buffer', store, '--out', model, '--epochs', '1', '--validation', '0', '--json']);
    expect(fit).toMatchObject({ env: 'web', realTransitions: recorded.transitions });

    // Eight episodes an iteration, not GRPO's default 64: each starts from a real reset of a page.
    const dream = await cli(['train', ...site, '--mode', 'dream', '--algo', 'grpo', '--synthetic-budget', '24', '--set', 'tasksPerIteration=2,groupSize=4', '--buffer', store, '--experience', 'neural', '--model', model, '--final-eval-episodes', '4', '--json']);
    expect(dream).toMatchObject({ env: 'web', mode: 'dream', realTransitions: 0, eval: { split: 'test', episodes: 4 } });
    expect(dream.syntheticTransitions).toBeGreaterThan(0);
  });
});
