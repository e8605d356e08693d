/**
 * Demonstrations on the foreign-style corpus (examples/foreign-sites/): N episodes of each of its 18
 * tasks on the train split, played by the corpus's scripted people (tests/fixtures/foreign-sites/
 * persons.ts: functions of the observation text and the admissible actions, as a person reads the
 * page), written as a replay store. The CLI's `buffer seed` has no agent for a folder of pages a
 * team wrote (their demonstrations come from `record`); these people stand in for the team.
 *
 *   node --import tsx results/priors/foreign/demos.ts N SEED OUT.jsonl
 */
import type { Agent, Observation } from '../../../src/core/types.ts';
import { runEpisode } from '../../../src/envs/episode.ts';
import { registered } from '../../../src/envs/registry.ts';
import { closePageHosts } from '../../../src/envs/web/hosts.ts';
import { loadSite } from '../../../src/envs/web/node/site-folder.ts';
import type { WebGoal } from '../../../src/envs/web/site.ts';
import { FileReplayStore } from '../../../src/replay/file-store.ts';
import { episodeTransitions, recordSeededEpisodes, tasksPerKind, type SeededEpisode } from '../../../src/replay/seed.ts';
import { PERSONS } from '../../../tests/fixtures/foreign-sites/persons.ts';

const [count, seedText, out] = process.argv.slice(2);
const perTask = Number(count);
const seed = Number(seedText);
if (!Number.isInteger(perTask) || perTask < 1 || !Number.isInteger(seed) || !out) {
  console.error('usage: node --import tsx results/priors/foreign/demos.ts N SEED OUT.jsonl');
  process.exit(2);
}

const spec = registered(loadSite('examples/foreign-sites'));
const kinds = new Set(spec.tasks('train').map((t) => spec.taskKind?.(t)));
const tasks = tasksPerKind(spec, 'train', kinds.size * perTask, perTask, seed);
const store = await FileReplayStore.open(out);
const env = spec.createEnv();
const runId = `foreign-demos-${perTask}-${seed}`;
const episodes: SeededEpisode[] = [];
try {
  for (const [index, task] of tasks.entries()) {
    const goal = task.goal as WebGoal;
    const play = PERSONS[goal.site]?.[goal.task];
    if (!play) throw new Error(`no scripted person for ${goal.site}/${goal.task}`);
    const person: Agent = { name: 'oracle', reset() {}, act: (o: Observation) => play(o.text, o.actions) };
    const record = await runEpisode(env, person, task);
    const transitions = episodeTransitions(record, runId, `${runId}/${index}`, 0);
    await store.add(transitions);
    episodes.push({ index, agent: 'oracle', task, won: record.won, transitions });
    console.error(`${task.id}: ${record.won ? 'won' : 'lost'} in ${record.steps.length} steps`);
  }
  await recordSeededEpisodes(store, episodes);
} finally {
  await store.close();
  await env.close?.();
  await closePageHosts();
}
const won = episodes.filter((e) => e.won).length;
console.log(JSON.stringify({ out, perTask, seed, episodes: episodes.length, won, transitions: episodes.reduce((n, e) => n + e.transitions.length, 0) }));
