import { describe, expect, it } from 'vitest';
import type { Transition } from '../../../src/core/types.ts';
import { importJsonl, transitionLine } from '../../../src/replay/jsonl.ts';
import { readLines } from '../../../src/replay/lines.ts';
import { validateTransition } from '../../../src/replay/schema.ts';
import { transition } from './helpers.ts';

async function collect(chunks: string[], batchSize = 2) {
  const landed: Transition[] = [];
  const batches: number[] = [];
  const report = await importJsonl(chunks, async (batch) => {
    batches.push(batch.length);
    landed.push(...batch);
  }, { batchSize });
  return { landed, batches, report };
}

describe('JSONL import and export', () => {
  it('splits chunks into lines wherever the chunk boundaries fall, LF or CRLF', async () => {
    const out: string[] = [];
    for await (const l of readLines(['a\r', '\nbb', 'b\nc', 'cc\r\n', 'd'])) out.push('text' in l ? l.text : `too long: ${l.tooLong}`);
    expect(out).toEqual(['a', 'bbb', 'ccc', 'd']);
  });

  it('round-trips transitions, dropping stored ids and vectors', async () => {
    const original = [transition(1), transition(2, { reasoning: 'why', source: 'synthetic', reward: 1, done: true })];
    const text = original.map((t, i) => transitionLine({ ...t, id: i + 7, vector: new Float32Array(3) } as Transition)).join('');
    expect(text).not.toContain('vector');
    const { landed, report } = await collect([text]);
    expect(report).toMatchObject({ accepted: 2, rejectedCount: 0, lines: 2 });
    expect(landed).toEqual(original);
  });

  it('skips each bad line with its line number and why, and every good line still lands', async () => {
    const good = (n: number) => transitionLine(transition(n));
    const file = [
      good(1),
      '{"runId": "r", not json\n',
      good(2),
      `${JSON.stringify({ ...transition(3), reward: 'one' })}\n`,
      '\n',
      `${JSON.stringify({ ...transition(4), source: 'dreamed' })}\n`,
      `${JSON.stringify({ ...transition(5), extra: 1 })}\n`,
      good(6),
      '[1, 2, 3]\n',
      good(7),
    ].join('');
    const { landed, report, batches } = await collect([file.slice(0, 100), file.slice(100, 333), file.slice(333)]);
    expect(landed.map((t) => t.instruction)).toEqual(['find item 1', 'find item 2', 'find item 6', 'find item 7']);
    expect(batches).toEqual([2, 2]);
    expect(report.accepted).toBe(4);
    expect(report.rejectedCount).toBe(5);
    expect(report.rejected.map((r) => r.line)).toEqual([2, 4, 6, 7, 9]);
    expect(report.rejected[0]?.problem).toMatch(/not JSON/);
    expect(report.rejected[1]?.problem).toMatch(/^reward: /);
    expect(report.rejected[2]?.problem).toMatch(/^source: /);
    expect(report.rejected[3]?.problem).toMatch(/extra/);
    expect(report.lines).toBe(10);
  });

  it('rejects non-finite rewards and oversized texts', () => {
    expect(validateTransition({ ...transition(1), reward: Number.NaN })).toMatchObject({ ok: false });
    expect(validateTransition({ ...transition(1), state: { text: 'x'.repeat(70_000), actions: [] } })).toMatchObject({ ok: false, problem: expect.stringMatching(/^state\.text/) });
    expect(validateTransition(transition(1))).toMatchObject({ ok: true });
  });

  it('says what a line is in the file\'s terms: not a transition at all, a missing or unknown field, a wrong type, an empty action', () => {
    const problem = (value: unknown) => {
      const result = validateTransition(value);
      return result.ok ? 'ok' : result.problem;
    };
    expect(problem([1, 2, 3])).toMatch(/^not a transition: a JSON array, where each line holds one JSON object with runId, taskId, .*createdAt$/);
    expect(problem(null)).toMatch(/^not a transition: null,/);
    expect(problem({ name: 'x', price: 3 })).toMatch(/^not a transition: an object with the fields name, price, where a transition has runId, /);
    const { runId: _runId, ...noRun } = transition(1);
    expect(problem(noRun)).toBe('runId: missing');
    expect(problem({ ...transition(1), extra: 1 })).toBe('extra: not a transition field');
    expect(problem({ ...transition(1), reward: 'one' })).toBe('reward: expected number, got "one"');
    expect(problem({ ...transition(1), state: 'page' })).toBe('state: expected an object, got "page"');
    expect(problem({ ...transition(1), action: '  ' })).toBe('action: empty (a transition records the action taken)');
    // A malformed action is experience too (the env answered it as invalid): it stays importable.
    expect(problem({ ...transition(1), action: 'dance wildly' })).toBe('ok');
  });

  it('ignores a store file meta line instead of calling it bad', async () => {
    const { report } = await collect([`{"$meta":{"version":1}}\n${transitionLine(transition(1))}`]);
    expect(report).toMatchObject({ accepted: 1, rejectedCount: 0 });
  });
});
