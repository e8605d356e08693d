import { describe, expect, it } from 'vitest';
import type { Transition } from '../../../src/core/types.ts';
import { importJsonl, transitionLine } from '../../../src/replay/jsonl.ts';
import { dropStoredTransitions, transitionKey } from '../../../src/replay/known-transitions.ts';
import { MemoryReplayStore } from '../../../src/replay/memory-store.ts';
import { transition } from './helpers.ts';

describe('transitions a store already holds', () => {
  it('a key names the content: the store id, a vector and key order do not change it, any field that matters does', () => {
    const t = transition(1);
    const reordered = JSON.parse(JSON.stringify({ id: 99, vector: [1, 2], ...Object.fromEntries(Object.entries(t).reverse()) })) as Transition;
    expect(transitionKey(reordered)).toBe(transitionKey(t));
    const changes: Partial<Transition>[] = [
      { runId: 'run-b' }, { episodeId: 'run-a/9' }, { action: 'click[Buy Now]' }, { reward: 1 }, { done: true },
      { source: 'synthetic' }, { createdAt: t.createdAt + 1 }, { history: ['search[item 1]'] }, { reasoning: 'because' },
      { next: { ...t.next, actions: [] } }, { state: { ...t.state, text: `${t.state.text} ` } },
    ];
    const keys = new Set([transitionKey(t), ...changes.map((c) => transitionKey({ ...t, ...c }))]);
    expect(keys.size).toBe(changes.length + 1);
    expect(transitionKey(t)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('drops what the store held before and repeats of its runs, keeps new runs untouched, across pages of keys', async () => {
    const store = new MemoryReplayStore();
    // More stored transitions than one page of keys (1,000), so the walk over pages is exercised.
    await store.add(Array.from({ length: 1_205 }, (_, n) => transition(n)));
    const drop = dropStoredTransitions(store);
    const batch = [transition(3), transition(1_204), transition(5_000), transition(5_000), transition(1, { runId: 'run-new' }), transition(1, { runId: 'run-new' })];
    const kept = await drop(batch);
    // The stored run's new transition once, and the new run's two (a run the store never had is not compared).
    expect(kept.map((t) => [t.runId, t.instruction])).toEqual([
      ['run-a', 'find item 5000'], ['run-new', 'find item 1'], ['run-new', 'find item 1'],
    ]);
  });

  it('an import told to drop known transitions counts them as duplicates and hands on only the rest', async () => {
    const store = new MemoryReplayStore();
    await store.add([transition(1), transition(2)]);
    const landed: Transition[] = [];
    const text = [1, 2, 3].map((n) => transitionLine(transition(n))).join('');
    const report = await importJsonl([text], async (batch) => {
      landed.push(...batch);
    }, { batchSize: 2, dropKnown: dropStoredTransitions(store) });
    expect(report).toMatchObject({ lines: 3, accepted: 1, duplicates: 2, rejectedCount: 0 });
    expect(landed.map((t) => t.instruction)).toEqual(['find item 3']);
  });
});
