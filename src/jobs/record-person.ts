/**
 * `recordPerson`: a person plays a site's task in a visible browser and every step they take is
 * kept as a real transition of a demonstration run (kind `demo:record`), the seed of a team's own
 * workflow (`record` in the CLI). What the person does on the page (a click, typed text, a chosen
 * option, Enter) is stopped before the page sees it, mapped to the admissible action it means
 * (person.ts, as the app's Play view maps it) and played through the env, so the page reacts to
 * the env's step, once, and the reward is the site's hooks'. Input the page does not admit is
 * refused with why and changes nothing. Only finished episodes are kept: a demonstration cut short
 * says nothing about how the task ends.
 */
import type { Env, Observation, Task } from '../core/types.ts';
import type { EpisodeRecord } from '../envs/episode.ts';
import { personAction, type PersonInput } from '../envs/web/person.ts';
import { episodeTransitions } from '../replay/seed.ts';
import { taskRecord, type ReplayStore } from '../replay/store.ts';

/** An env a person acts in: what they did next on its page, or null when they closed it. */
export interface PersonEnv extends Env {
  nextPersonInput(): Promise<PersonInput | null>;
}

export type RecordEvent =
  | { kind: 'episode'; index: number; total: number; task: Task; observation: Observation }
  | { kind: 'step'; action: string; reward: number; explanation: string }
  | { kind: 'refused'; input: PersonInput; why: string }
  | { kind: 'done'; index: number; won: boolean; steps: number };

export interface RecordOptions {
  env: PersonEnv;
  tasks: readonly Task[];
  store: ReplayStore;
  runId: string;
  /** Where the demonstration came from (the site and task), kept on the run's record. */
  meta: Record<string, unknown>;
  createdAt?: number;
  onEvent?: (event: RecordEvent) => void;
}

export interface RecordResult {
  runId: string;
  episodes: number;
  transitions: number;
  won: number;
  /** The person closed the page before every episode was played. */
  stopped: boolean;
}

/** What a person's input was, for the message that refuses it. */
function describeInput(input: PersonInput): string {
  switch (input.kind) {
    case 'click':
      return `a click on element #${input.id}`;
    case 'type':
      return `typing into element #${input.id}`;
    case 'select':
      return `choosing "${input.option}" in element #${input.id}`;
    case 'press':
      return `${input.key} on element #${input.id}`;
  }
}

export async function recordPerson(options: RecordOptions): Promise<RecordResult> {
  const { env, tasks, store, runId } = options;
  const createdAt = options.createdAt ?? Date.now();
  await store.putRun({ id: runId, env: env.name, kind: 'demo:record', createdAt, meta: { recordedBy: 'a person, with the CLI record command', ...options.meta } });
  const result: RecordResult = { runId, episodes: 0, transitions: 0, won: 0, stopped: false };
  for (const [index, task] of tasks.entries()) {
    const first = await env.reset(task);
    options.onEvent?.({ kind: 'episode', index, total: tasks.length, task, observation: first });
    const record: EpisodeRecord = { task, first, steps: [], score: 0, won: false, invalidActions: 0 };
    let observation = first;
    for (;;) {
      const input = await env.nextPersonInput();
      if (input === null) {
        result.stopped = true;
        return result;
      }
      const action = personAction(input, observation.actions);
      if (action === null) {
        options.onEvent?.({ kind: 'refused', input, why: `${describeInput(input)} is not an action the page admits now` });
        continue;
      }
      const step = await env.step(action);
      record.steps.push({ action, result: step });
      record.score += step.reward;
      observation = step.observation;
      options.onEvent?.({ kind: 'step', action, reward: step.reward, explanation: String(step.info.explanation ?? '') });
      if (step.done) {
        record.won = step.info.won;
        break;
      }
    }
    const transitions = episodeTransitions(record, runId, `${runId}-${index}`, createdAt);
    await store.add(transitions);
    // Its task and outcome too, as seeding records them: the curriculum and the Buffer view read them.
    await store.putTasks([taskRecord(task, 0)]);
    await store.recordOutcomes([{ taskId: task.id, env: task.env, won: record.won, return: record.score }]);
    result.episodes++;
    result.transitions += transitions.length;
    if (record.won) result.won++;
    options.onEvent?.({ kind: 'done', index, won: record.won, steps: record.steps.length });
  }
  return result;
}
