import { describe, expect, it } from 'vitest';
import { Rng } from '../../../src/core/rng.ts';
import type { Task } from '../../../src/core/types.ts';
import { Curriculum } from '../../../src/curriculum/curriculum.ts';
import type { TaskGenerator, VariationRequest } from '../../../src/curriculum/generator.ts';
import { selectTasks, type Candidate } from '../../../src/curriculum/selection.ts';
import { outcomeVariance, successVariance } from '../../../src/curriculum/stats.ts';

const task = (id: string, origin: Task['origin'] = 'seed'): Task => ({ id, env: 'shop', instruction: `task ${id}`, difficulty: 1, origin, goal: { id } });
const seen = (id: string, score: number | null, origin: Task['origin'] = 'seed'): Candidate => ({ task: task(id, origin), group: id, score, attempted: true });
const unseen = (id: string, origin: Task['origin'] = 'seed'): Candidate => ({ task: task(id, origin), group: id, score: null, attempted: false });

describe('outcome variance', () => {
  it('is the population variance of a group, p(1-p) for 0/1 outcomes', () => {
    expect(outcomeVariance([1, 1, 0, 0])).toBeCloseTo(0.25);
    expect(outcomeVariance([1, 0, 0, 0])).toBeCloseTo(0.1875);
    expect(outcomeVariance([1, 1, 1])).toBe(0);
    expect(outcomeVariance([0.5, 1])).toBeCloseTo(0.0625);
    expect(outcomeVariance([])).toBe(0);
    // The success outcome's variance from a count is the same number as from the 0/1 list.
    expect(successVariance(1, 4)).toBeCloseTo(outcomeVariance([1, 0, 0, 0]), 12);
    expect(successVariance(0, 0)).toBe(0);
  });
});

describe('selection by outcome variance', () => {
  const config = { lambda: 0.25, explorationFloor: 0, perGroup: 1 };

  it('keeps the tasks whose groups vary most', () => {
    const candidates = [seen('a', 0.25), seen('b', 0), seen('c', 0.1875), seen('d', 0.09), seen('e', 0), seen('f', 0.24)];
    const picked = selectTasks(candidates, 3, config, new Rng(1));
    expect(picked.tasks.map((t) => t.id).sort()).toEqual(['a', 'c', 'f']);
    expect(picked.byVariance).toBe(3);
    expect(picked.meanVariance).toBeCloseTo((0.25 + 0.1875 + 0.24) / 3);
  });

  it('fills with unattempted, then settled tasks when too few vary, never repeating one', () => {
    const candidates = [seen('a', 0.25), seen('b', 0), unseen('c'), seen('d', 0)];
    const picked = selectTasks(candidates, 3, config, new Rng(2));
    const ids = picked.tasks.map((t) => t.id);
    expect(ids[0]).toBe('a');
    expect(ids).toContain('c');
    expect(new Set(ids).size).toBe(3);
    expect(picked.filled).toBe(2);
  });

  it('caps generated tasks at λ of the iteration, however many there are or however varied', () => {
    const generated = Array.from({ length: 20 }, (_, i) => seen(`g${i}`, 0.25, 'generated'));
    const seeds = Array.from({ length: 20 }, (_, i) => seen(`s${i}`, 0.01));
    for (const lambda of [0, 0.1, 0.25, 0.5, 1]) {
      for (const count of [1, 4, 8, 13]) {
        const picked = selectTasks([...generated, ...seeds], count, { ...config, lambda }, new Rng(count));
        const g = picked.tasks.filter((t) => t.origin === 'generated').length;
        expect(g).toBe(Math.floor(lambda * count));
        expect(picked.generated).toBe(g);
        expect(picked.tasks).toHaveLength(count);
      }
    }
    // With too few seed tasks the iteration is short rather than over the cap.
    const short = selectTasks([...generated, seen('s', 0)], 8, { ...config, lambda: 0.25 }, new Rng(3));
    expect(short.tasks.filter((t) => t.origin === 'generated')).toHaveLength(2);
    expect(short.tasks).toHaveLength(3);
  });

  it('gives new generated tasks their slots before older ones, and drops generated tasks that stopped varying', () => {
    const candidates = [seen('old', 0.2, 'generated'), unseen('new', 'generated'), seen('flat', 0, 'generated'), seen('s1', 0.1), seen('s2', 0.1), seen('s3', 0.1)];
    const picked = selectTasks(candidates, 4, { ...config, lambda: 0.5 }, new Rng(4));
    const generated = picked.tasks.filter((t) => t.origin === 'generated').map((t) => t.id);
    expect(generated).toEqual(['new', 'old']);
  });

  it('keeps a floor share of the slots for unattempted tasks', () => {
    const candidates = [...Array.from({ length: 10 }, (_, i) => seen(`v${i}`, 0.25)), ...Array.from({ length: 10 }, (_, i) => unseen(`u${i}`))];
    const picked = selectTasks(candidates, 10, { ...config, explorationFloor: 0.3 }, new Rng(5));
    expect(picked.tasks.filter((t) => t.id.startsWith('u'))).toHaveLength(3);
    expect(picked.explored).toBe(3);
    expect(picked.byVariance).toBe(7);
  });

  it('takes at most perGroup tasks of one group in the variance pass (PPO clusters)', () => {
    const inCluster = (id: string, group: string, score: number): Candidate => ({ ...seen(id, score), group });
    const candidates = [inCluster('a1', 'A', 0.25), inCluster('a2', 'A', 0.25), inCluster('a3', 'A', 0.25), inCluster('b1', 'B', 0.2), inCluster('c1', 'C', 0.1)];
    const picked = selectTasks(candidates, 4, { ...config, perGroup: 2 }, new Rng(6));
    const ids = picked.tasks.map((t) => t.id);
    expect(ids.filter((id) => id.startsWith('a'))).toHaveLength(2);
    expect(ids).toContain('b1');
    expect(ids).toContain('c1');
  });
});

/** A generator that makes one child per request and remembers what it was asked. */
class RecordingGenerator implements TaskGenerator {
  readonly name = 'recording';
  readonly asked: VariationRequest[] = [];
  async generate(requests: readonly VariationRequest[]): Promise<Task[]> {
    this.asked.push(...requests);
    return requests.map((r) => ({ ...task(`${r.parent.id}-child`, 'generated'), parentId: r.parent.id }));
  }
  stats() {
    return { requested: this.asked.length, made: this.asked.length, real: this.asked.length, syntheticOnly: 0, fallbacks: 0 };
  }
}

/** Makes one variation for every parent: the same task, as two web parents can recombine into one goal. */
class OneVariationGenerator implements TaskGenerator {
  readonly name = 'one-variation';
  async generate(requests: readonly VariationRequest[]): Promise<Task[]> {
    return requests.map(() => ({ ...task('same-child', 'generated'), parentId: 't1' }));
  }
  stats() {
    return { requested: 0, made: 0, real: 0, syntheticOnly: 0, fallbacks: 0 };
  }
}

describe('the curriculum loop', () => {
  const pool = Array.from({ length: 12 }, (_, i) => task(`t${i}`));

  it('keeps a variation two parents made in one batch once, so a checkpoint of it restores', async () => {
    const config = { lambda: 0.5, explorationFloor: 0 };
    const curriculum = new Curriculum(pool, { grouping: 'task', generator: new OneVariationGenerator(), rng: new Rng(3), config });
    const group = (taskId: string, wins: number) => Array.from({ length: 4 }, (_, i) => ({ taskId, return: i < wins ? 1 : 0, won: i < wins }));
    const made = await curriculum.observe([...group('t1', 2), ...group('t2', 1)], 0, 4, new Rng(4));
    expect(made.map((t) => t.id)).toEqual(['same-child']);
    const state = curriculum.snapshot();
    expect(state.generated.map((t) => t.id)).toEqual(['same-child']);
    const resumed = new Curriculum(pool, { grouping: 'task', generator: new OneVariationGenerator(), rng: new Rng(3), config });
    resumed.restore(state);
    expect(resumed.rows().map((r) => r.id).sort()).toEqual(curriculum.rows().map((r) => r.id).sort());
    // A checkpoint written before the fix lists it twice: it still restores, as it was.
    const older = new Curriculum(pool, { grouping: 'task', generator: new OneVariationGenerator(), rng: new Rng(3), config });
    older.restore({ ...state, generated: [...state.generated, ...state.generated] });
    expect(older.snapshot().generated.map((t) => t.id)).toEqual(['same-child', 'same-child']);
    // A generated task that names a seed task is still refused.
    const clash = new Curriculum(pool, { grouping: 'task', generator: new OneVariationGenerator(), rng: new Rng(3), config });
    expect(() => clash.restore({ ...state, generated: [{ ...task('t3'), origin: 'generated' }] })).toThrow(/t3 is already in the pool/);
  });

  it('after a GRPO iteration, selects the tasks that varied and varies them, most varied first', async () => {
    const generator = new RecordingGenerator();
    const curriculum = new Curriculum(pool, { grouping: 'task', generator, rng: new Rng(7), config: { lambda: 0.25, explorationFloor: 0 } });
    const group = (taskId: string, wins: number) => Array.from({ length: 4 }, (_, i) => ({ taskId, return: i < wins ? 1 : 0, won: i < wins }));
    const made = await curriculum.observe([...group('t0', 4), ...group('t1', 2), ...group('t2', 1), ...group('t3', 0)], 0, 4, new Rng(8));
    // λ·4 = 1 variation per iteration, of the most varied task (t1: 2 of 4).
    expect(generator.asked.map((r) => [r.parent.id, r.successRate])).toEqual([['t1', 0.5]]);
    expect(made.map((t) => t.id)).toEqual(['t1-child']);
    const next = curriculum.next(4, new Rng(9));
    expect(next.map((t) => t.id)).toContain('t1-child');
    expect(next.filter((t) => t.origin === 'generated')).toHaveLength(1);
    const seeds = next.filter((t) => t.origin === 'seed').map((t) => t.id);
    expect(seeds.slice(0, 2)).toEqual(['t1', 't2']);
    const rows = curriculum.rows();
    expect(rows[0]).toMatchObject({ id: 't1', variance: 0.25, attempts: 4, successRate: 0.5, policyVersion: 0 });
    expect(rows.find((r) => r.id === 't1-child')).toMatchObject({ origin: 'generated', parentId: 't1', attempts: 0 });
  });

  it('forgets a group when a newer policy version plays the task, and lets stale variance go', async () => {
    const curriculum = new Curriculum(pool, { grouping: 'task', generator: new RecordingGenerator(), rng: new Rng(10), config: { lambda: 0, staleAfter: 2 } });
    await curriculum.observe([{ taskId: 't0', return: 1, won: true }, { taskId: 't0', return: 0, won: false }], 0, 4, new Rng(1));
    expect(curriculum.rows()[0]).toMatchObject({ id: 't0', variance: 0.25 });
    await curriculum.observe([{ taskId: 't0', return: 1, won: true }, { taskId: 't0', return: 1, won: true }], 1, 4, new Rng(1));
    expect(curriculum.rows().find((r) => r.id === 't0')).toMatchObject({ variance: 0, attempts: 4, successRate: 0.75, policyVersion: 1 });
    await curriculum.observe([{ taskId: 't1', return: 1, won: true }, { taskId: 't1', return: 0, won: false }], 1, 4, new Rng(1));
    await curriculum.observe([{ taskId: 't2', return: 0, won: false }], 5, 4, new Rng(1));
    expect(curriculum.rows().find((r) => r.id === 't1')?.variance).toBeNull();
  });

  it('pools a cluster for PPO, where a task is played once per iteration', async () => {
    const generator = new RecordingGenerator();
    const clustered = [...Array.from({ length: 6 }, (_, i) => ({ ...task(`red${i}`), instruction: `buy red shoes size ${i}` })), ...Array.from({ length: 6 }, (_, i) => ({ ...task(`tea${i}`), instruction: `green tea pack of ${i}` }))];
    const curriculum = new Curriculum(clustered, { grouping: 'cluster', generator, rng: new Rng(11), config: { clusters: 2, lambda: 0.5, explorationFloor: 0 } });
    const rows = curriculum.rows();
    const groupOf = (id: string) => rows.find((r) => r.id === id)?.group;
    expect(groupOf('red0')).toBe(groupOf('red5'));
    expect(groupOf('red0')).not.toBe(groupOf('tea0'));
    await curriculum.observe([
      ...['red0', 'red1', 'red2', 'red3'].map((taskId, i) => ({ taskId, return: i % 2, won: i % 2 === 1 })),
      ...['tea0', 'tea1'].map((taskId) => ({ taskId, return: 0, won: false })),
    ], 0, 4, new Rng(12));
    expect(curriculum.rows().find((r) => r.id === 'red5')?.variance).toBeCloseTo(0.25);
    expect(curriculum.rows().find((r) => r.id === 'tea5')?.variance).toBe(0);
    expect(generator.asked.every((r) => r.parent.id.startsWith('red'))).toBe(true);
  });

  it('scores a group by the variance of its successes or of its returns, as configured', async () => {
    // t0's episodes all fail but are paid partial rewards (a dream's partial end rewards, a shop's
    // partial score); t1 succeeds in 1 of 4.
    const results = [
      ...[0.9, 0.1, 0.9, 0.1].map((r) => ({ taskId: 't0', return: r, won: false })),
      ...[1, 0, 0, 0].map((r) => ({ taskId: 't1', return: r, won: r === 1 })),
    ];
    const byOutcome = async (outcome: 'success' | 'return') => {
      const generator = new RecordingGenerator();
      const curriculum = new Curriculum(pool, { grouping: 'task', generator, rng: new Rng(3), config: { lambda: 0.25, explorationFloor: 0, outcome } });
      await curriculum.observe(results, 0, 4, new Rng(4));
      const variance = (id: string) => curriculum.rows().find((r) => r.id === id)?.variance;
      return { t0: variance('t0'), t1: variance('t1'), parents: generator.asked.map((r) => r.parent.id), summary: curriculum.summary() };
    };
    const success = await byOutcome('success');
    expect(success.t0).toBe(0);
    expect(success.t1).toBeCloseTo(0.25 * 0.75);
    expect(success.parents).toEqual(['t1']);
    expect(success.summary).toMatchObject({ outcome: 'success', variations: 'any' });
    const ret = await byOutcome('return');
    expect(ret.t0).toBeCloseTo(0.16);
    expect(ret.t1).toBeCloseTo(0.1875);
    expect(ret.parents).toEqual(['t1']);
    // The partial rewards alone make t0 a parent by return, never by success.
    const onlyPartial = new Curriculum(pool, { grouping: 'task', generator: new RecordingGenerator(), rng: new Rng(3), config: { lambda: 0.5, outcome: 'return' } });
    await onlyPartial.observe(results.filter((r) => r.taskId === 't0'), 0, 2, new Rng(4));
    expect(onlyPartial.rows()[0]).toMatchObject({ id: 't0' });
    expect(() => new Curriculum(pool, { grouping: 'task', generator: new RecordingGenerator(), rng: new Rng(1), config: { outcome: 'score' as 'success' } })).toThrow(/outcome must be one of success, return/);
  });

  it('falls back to the return when no group\'s success varies, and back to the success once one does', async () => {
    // Every episode fails (a model that calls no ending a success) but the partial rewards differ.
    const curriculum = new Curriculum(pool, { grouping: 'task', generator: new RecordingGenerator(), rng: new Rng(3), config: { lambda: 0.25, explorationFloor: 0 } });
    await curriculum.observe([...[0.9, 0.1, 0.9, 0.1].map((r) => ({ taskId: 't0', return: r, won: false })), ...[0.2, 0.2].map((r) => ({ taskId: 't1', return: r, won: false }))], 0, 4, new Rng(4));
    expect(curriculum.summary()).toMatchObject({ outcome: 'success', outcomeInUse: 'return' });
    expect(curriculum.rows()[0]).toMatchObject({ id: 't0', variance: expect.closeTo(0.16) });
    expect(curriculum.lastSelection).toBeNull();
    // t0 varies most by return: it is varied, and both it and its variation are chosen.
    expect(curriculum.next(4, new Rng(5)).map((t) => t.id)).toEqual(expect.arrayContaining(['t0', 't0-child']));
    // A group whose success varies: the success decides again, and t0 no longer varies by it.
    await curriculum.observe([1, 0].map((r) => ({ taskId: 't2', return: r, won: r === 1 })), 1, 4, new Rng(6));
    expect(curriculum.summary().outcomeInUse).toBe('success');
    expect(curriculum.rows()[0]).toMatchObject({ id: 't2', variance: 0.25 });
    expect(curriculum.rows().find((r) => r.id === 't0')?.variance).toBe(0);
  });

  it('refuses a λ or exploration floor outside [0, 1]', () => {
    expect(() => new Curriculum(pool, { grouping: 'task', generator: new RecordingGenerator(), rng: new Rng(1), config: { lambda: 1.5 } })).toThrow(/λ/);
    expect(() => new Curriculum(pool, { grouping: 'task', generator: new RecordingGenerator(), rng: new Rng(1), config: { explorationFloor: -0.1 } })).toThrow(/exploration/);
  });
});
