import { describe, expect, it } from 'vitest';
import type { Transition } from '../../../src/core/types.ts';
import { transitionCandidates } from '../../../src/experience/neural/transition-candidates.ts';
import { withReasoning } from '../../../src/experience/neural/transition-features.ts';
import { reasoningLabels, reasoningSummary, REASONING_SUMMARY_DENSE, sentenceForm, sentences } from '../../../src/experience/neural/reasoning.ts';
import { taskNames } from '../../../src/experience/neural/task-relative.ts';
import type { ExperienceInput } from '../../../src/experience/types.ts';

const watchTask = 'put a watch in shelf.';
const mugTask = 'put a mug in coffeemachine.';
const won = (obj: string, rec: string, task: string) => `The ${obj} was put in ${rec}, which completes the task "${task.replace(/\.$/, '')}", so the reward is 1.`;

function example(reasoning: string | undefined, reward: number): Transition {
  return {
    runId: 'r',
    taskId: 'w',
    episodeId: 'w',
    env: 'home',
    instruction: watchTask,
    history: ['take watch 3 from desk 1'],
    state: { text: `task: ${watchTask}\nlocation: shelf 2\nfeedback: You arrive at shelf 2.`, actions: ['put watch 3 in/on shelf 2'] },
    action: 'put watch 3 in/on shelf 2',
    ...(reasoning !== undefined ? { reasoning } : {}),
    next: { text: `task: ${watchTask}\nlocation: shelf 2\nfeedback: You put watch 3 in/on shelf 2.`, actions: [] },
    reward,
    done: reward > 0,
    source: 'real',
    createdAt: 0,
  };
}

function put(examples: Transition[]): ExperienceInput {
  const action = 'put mug 1 in/on coffeemachine 1';
  return {
    task: { id: 't', env: 'home', instruction: mugTask, difficulty: 0, origin: 'seed' },
    history: [{ action: 'take mug 1 from desk 1', state: { text: '', actions: [] } }],
    state: { text: `task: ${mugTask}\nlocation: coffeemachine 1\nfeedback: You arrive at coffeemachine 1.`, actions: [action] },
    action,
    examples,
  };
}

describe('reasoning candidates', () => {
  it('splits an annotation into sentences without breaking a price or a quotation', () => {
    expect(sentences('You went to shelf 2; it costs $19.99. The task needs it clean first, so the reward is 0.')).toEqual(['You went to shelf 2; it costs $19.99.', 'The task needs it clean first, so the reward is 0.']);
  });

  it("carries an example's verdict over to this task, where it reads as this task's verdict", () => {
    const { reasoning } = transitionCandidates(put([example(`You put watch 3 in shelf 2. ${won('watch 3', 'shelf 2', watchTask)}`, 1)]));
    const verdict = reasoning.find((c) => c.text.includes('completes'));
    expect(verdict).toBeDefined();
    // The real annotation of this step, were it a success, says the same in relative form.
    const labels = reasoningLabels(reasoning, won('mug 1', 'coffeemachine 1', mugTask), mugTask);
    expect(labels[reasoning.indexOf(verdict!)]).toBe(1);
    // And a real annotation that says the put fell short does not.
    expect(reasoningLabels(reasoning, 'You put mug 1 in coffeemachine 1. The task needs it clean first, so the reward is 0.', mugTask)[reasoning.indexOf(verdict!)]).toBe(0);
  });

  it('reads the same sentence of two tasks as one relative form', () => {
    expect(sentenceForm(won('watch 3', 'shelf 2', watchTask), taskNames(watchTask))).toBe(sentenceForm(won('mug 1', 'coffeemachine 1', mugTask), taskNames(mugTask)));
  });

  it('offers nothing when the examples carry no annotation (the without-reasoning ablation)', () => {
    const prepared = transitionCandidates(put([example(undefined, 1)]));
    expect(prepared.reasoning).toEqual([]);
    const summary = reasoningSummary(prepared.reasoning, [], prepared.reasoningSources);
    expect(summary.dense).toEqual(new Array(REASONING_SUMMARY_DENSE).fill(0));
    expect(summary.said).toEqual([]);
  });
});

describe('the transition row reads the chosen reasoning', () => {
  it('puts the summary in the reserved places and leaves the rest of the row as it was', () => {
    const prepared = transitionCandidates(put([example(won('watch 3', 'shelf 2', watchTask), 1), example('You put watch 3 in shelf 2. The task needs it clean first, so the reward is 0.', 0)]));
    const likely = prepared.reasoning.map((c) => (c.text.includes('completes') ? 0.9 : 0.1));
    const summary = reasoningSummary(prepared.reasoning, likely, prepared.reasoningSources);
    // The likeliest sentence comes from the rewarded example; no sentence of the other is said.
    expect(summary.dense.slice(0, 3)).toEqual([0.9, 0.1, 0.9]);
    expect(summary.said.map((c) => c.text)).toEqual([won('mug 1', 'coffeemachine 1', mugTask)]);
    const row = withReasoning(prepared.transition, summary);
    expect(row.dense.slice(0, REASONING_SUMMARY_DENSE)).toEqual(summary.dense);
    expect(row.dense.slice(REASONING_SUMMARY_DENSE)).toEqual(prepared.transition.dense.slice(REASONING_SUMMARY_DENSE));
    expect(row.hashed[0]).toMatch(/^rk /);
    expect(prepared.transition.hashed[0]).toBe('');
  });
});
