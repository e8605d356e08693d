/**
 * The Runs view's files: a training run as the CLI writes it, a paper experiment report, and the
 * files it must refuse (each with a message that says what is wrong); the run library in real
 * IndexedDB (kept across a reopen, a re-import recognised, delete); the charts' shared x axis.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { heldOutData, trainingData } from '../../src/app/runs/run-charts.ts';
import { parseRunFile, PAPER_REPORT_KIND, type RunData } from '../../src/app/runs/run-file.ts';
import { openDB } from 'idb';
import { RunLibrary, type StoredRun } from '../../src/app/runs/run-library.ts';

const evalResult = (successRate: number, episodes = 20) => ({ split: 'test', episodes, successRate, meanScore: 100 * successRate, meanSteps: 4.5, actionsDigest: 'ab'.repeat(32) });

// Plain objects, as a file holds them (the trainer's own types keep growing fields the view does not read).
function point(iteration: number, realTransitions: number, successRate: number, extra: Record<string, unknown> = {}) {
  return {
    iteration, phase: 'real', realTransitions, syntheticTransitions: 0, episodes: 64, successRate, meanScore: 100 * successRate, meanReturn: successRate,
    entropy: 1.2, approxKl: 0.01, clipFraction: 0.1, policyLoss: 0.02, valueLoss: 0.3, referenceKl: 0, gradNorm: 0.4, learningRate: 3e-4,
    samplesPerSecond: 500, wallSeconds: iteration * 1.5, ...extra,
  };
}

/** A run as `train … --history FILE.json` writes it (JSON.stringify(TrainResult)). */
function trainResult(seed: number, overrides: Record<string, unknown> = {}) {
  return {
    env: 'shop', mode: 'real', algo: 'ppo', backend: 'wasm', seed, realTransitions: 900, syntheticTransitions: 0,
    curriculum: { generator: 'buffer-variation', lambda: 0.25, grouping: 'cluster', pool: 1510, generatedInPool: 10, generatorStats: { requested: 12, made: 10, real: 7, syntheticOnly: 3, fallbacks: 0 } },
    wallSeconds: 12.25 + seed, iterations: 3, stopped: false, eval: evalResult(0.3, 500),
    history: [point(1, 300, 0.2), point(2, 600, 0.25, { eval: evalResult(0.22) }), point(3, 900, 0.3)],
    ...overrides,
  };
}

function paperReport(rows: unknown[]): Record<string, unknown> {
  return { kind: PAPER_REPORT_KIND, version: 1, env: 'shop', preset: 'quick', seeds: [1, 2], createdAt: '2025-01-02T03:04:05.000Z', rows };
}

const json = (value: unknown) => JSON.stringify(value);

describe('run files', () => {
  it('reads a training run as the CLI writes it, whole', () => {
    const parsed = parseRunFile('shop-ppo-seed1.json', JSON.stringify(trainResult(1), null, 1));
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.kind).toBe('train-result');
    expect(parsed.runs).toHaveLength(1);
    const [{ label, run }] = parsed.runs as [{ label: string; run: RunData }];
    expect(label).toBe('shop-ppo-seed1');
    expect(run).toMatchObject({ env: 'shop', mode: 'real', algo: 'ppo', seed: 1, realTransitions: 900, eval: { successRate: 0.3, episodes: 500 } });
    expect(run.history).toHaveLength(3);
    expect(run.history[1]?.eval?.successRate).toBe(0.22);
    expect(run.curriculum).toMatchObject({ generator: 'buffer-variation', lambda: 0.25, pool: 1510, generatedInPool: 10 });
    // Fields the view does not show are kept too: the run can be downloaded again as it came.
    expect(run).toEqual(trainResult(1));
  });

  it('reads a run of an older CLI (no phase) and a dream run with its experience model', () => {
    const { phase: _phase, ...older } = point(1, 0, 0.1);
    const old = { ...trainResult(2, { mode: 'dream', realTransitions: 0, syntheticTransitions: 900 }), history: [{ ...older, syntheticTransitions: 900 }] };
    const withModel = { ...old, dream: { experience: 'knn', k: 3, reasoning: true, offlineTransitions: 3000, realResets: 90, model: {}, synthetic: {} } };
    const parsed = parseRunFile('dream.json', json(withModel));
    expect(parsed.ok && parsed.runs[0]?.run.dream?.experience).toBe('knn');
    expect(parsed.ok && parsed.runs[0]?.run.history[0]).not.toHaveProperty('phase');
  });

  it('reads a paper experiment report as one run per row and seed', () => {
    const report = paperReport([
      { id: 'real-ppo', label: 'Real PPO', mode: 'real', algo: 'ppo', runs: [trainResult(1), trainResult(2)] },
      { id: 'dream-grpo', label: 'Dream GRPO (knn)', mode: 'dream', algo: 'grpo', runs: [trainResult(1, { mode: 'dream', algo: 'grpo', realTransitions: 0, syntheticTransitions: 900 })] },
    ]);
    const parsed = parseRunFile('paper-quick.json', json(report));
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.kind).toBe('paper-report');
    expect(parsed.runs.map((r) => r.label)).toEqual(['Real PPO seed 1', 'Real PPO seed 2', 'Dream GRPO (knn) seed 1']);
    expect(parsed.runs[2]?.run).toMatchObject({ mode: 'dream', algo: 'grpo', syntheticTransitions: 900 });
  });

  const bad: [string, string, RegExp][] = [
    ['not JSON', '{"env": "shop", ', /^broken\.json: not JSON \(.+\)\. Import a training run written by `train … --history FILE\.json`/],
    // Binary files are named, never quoted: JSON's own message would show their bytes.
    ['a policy file', 'DGPF\u0000\u0000\u0001\u0000{"format":"dreamgym-policy"}\uFFFD\uFFFD', /^broken\.json: a DreamGym policy file \(\.dgp\), not a training run: import it in the Evaluate view\. The Runs view imports a training run/],
    ['an experience model file', 'DGXF\u0000\u0002', /^broken\.json: a DreamGym experience model file \(\.dgx\), not a training run: import it in the Experience view\./],
    ['a checkpoint file', 'DGCF\u0000\u0002', /^broken\.json: a DreamGym training checkpoint \(\.dgc\), not a training run: the CLI goes on from it with `train … --checkpoint FILE\.dgc --resume`\./],
    ['binary data', 'PK\u0003\u0004\u0000\u0000\uFFFD', /^broken\.json: binary data \(not text\), not a training run\. The Runs view imports a training run written by `train … --history FILE\.json` or a paper experiment report\.$/],
    ['a list', json([trainResult(1)]), /^broken\.json: holds a list, not a training run: expected a JSON object/],
    ['a string', json('hello'), /^broken\.json: holds a string, not a training run/],
    ['another kind of file', json({ kind: 'dreamgym-policy', version: 1 }), /^broken\.json: a file of kind "dreamgym-policy", not a training run or a paper experiment report \(kind "dreamgym-paper-experiment"\)\.$/],
    ['a newer report', json({ ...paperReport([]), version: 2 }), /^broken\.json: a paper experiment report of version "?2"?; this app reads version 1\.$/],
    ['a report without rows', json(paperReport([])), /^broken\.json: not a valid paper experiment report: rows: the report has no rows\.$/],
    ['a report whose rows have no runs', json(paperReport([{ id: 'a', label: 'A', mode: 'real', algo: 'ppo', runs: [] }])), /^broken\.json: a paper experiment report without runs/],
    ['a report with a bad run', json(paperReport([{ id: 'a', label: 'A', mode: 'real', algo: 'ppo', runs: [trainResult(1, { algo: 'dqn' })] }])),
      /^broken\.json: not a valid paper experiment report: rows\.0\.runs\.0\.algo: Invalid type: Expected \("ppo" \| "grpo" \| "bc" \| "dpo"\) but received "dqn"/],
    ['an evaluation report', json({ env: 'shop', policy: 'p.dgp', backend: 'wasm', split: 'test', episodes: 10, successRate: 0.4, meanScore: 50, meanSteps: 4, actionsDigest: 'x', stepsPerSec: 100 }),
      /^broken\.json: an evaluation report \(from `rollout`\), not a training run: it has no "history"/],
    ['an experience model fit report', json({ env: 'shop', out: 'm.dgx', bytes: 100, backend: 'wasm', realTransitions: 900, validationTransitions: 100, epochs: 3, rows: 5, wallSeconds: 2, history: [{ epoch: 1 }] }),
      /^broken\.json: an experience model fit report \(from `experience fit`\): its "history" is of epochs/],
    ['a file without history', json({ ...trainResult(1), history: undefined }), /^broken\.json: no "history", so it is not a training run\. Write one with `train … --history FILE\.json`\.$/],
    ['a history entry with a bad field', json(trainResult(1, { history: [point(1, 300, 0.2), { ...point(2, 600, 0.3), successRate: 'high' }] })),
      /^broken\.json: not a valid training run: history\.1\.successRate: Invalid type: Expected number but received "high"\.$/],
    ['a missing field', json({ ...trainResult(1), realTransitions: undefined }), /^broken\.json: not a valid training run: realTransitions: Invalid key: Expected "realTransitions" but received undefined\.$/],
    ['an unknown mode', json(trainResult(1, { mode: 'sim' })), /^broken\.json: not a valid training run: mode: Invalid type: Expected \("real" \| "dream" \| "s2r" \| "bc" \| "dpo"\) but received "sim"\.$/],
  ];
  it.each(bad)('refuses %s with a message that says why', (_what, content, message) => {
    const parsed = parseRunFile('broken.json', content);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.problem).toMatch(message);
  });

  it('lines the runs up on one x axis, held-out points at their transitions and the final one at the end', () => {
    const a = parseRunFile('a.json', json(trainResult(1)));
    const b = parseRunFile('b.json', json(trainResult(2, { realTransitions: 500, eval: evalResult(0.5), history: [point(1, 250, 0.4, { eval: evalResult(0.45) }), point(2, 500, 0.6)] })));
    if (!a.ok || !b.ok) throw new Error('fixtures must parse');
    const runs = [a.runs[0]!.run, b.runs[0]!.run];
    expect(heldOutData(runs)).toEqual([[250, 500, 600, 900], [null, null, 0.22, 0.3], [0.45, 0.5, null, null]]);
    expect(trainingData(runs)).toEqual([[1, 2, 3], [0.2, 0.25, 0.3], [0.4, 0.6, null]]);
  });
});

describe('the run library (real IndexedDB)', () => {
  const name = `test-runs-${Date.now()}`;
  afterAll(() => RunLibrary.destroy(name));

  it('keeps runs across a reopen, stores a re-imported run once, and deletes', async () => {
    const parsed = parseRunFile('a.json', json(trainResult(1)));
    const other = parseRunFile('b.json', json(trainResult(2)));
    if (!parsed.ok || !other.ok) throw new Error('fixtures must parse');
    const run = parsed.runs[0]!.run;

    const library = await RunLibrary.open(name);
    expect(await library.list()).toEqual([]);
    const first = await library.add([{ label: 'mine', source: 'app', fileName: null, run }]);
    expect(first.added).toHaveLength(1);
    expect(first.duplicates).toBe(0);
    // The same run again (in one batch twice, and already stored) is not stored twice.
    const again = await library.add([
      { label: 'copy', source: 'file', fileName: 'a.json', run },
      { label: 'b', source: 'file', fileName: 'b.json', run: other.runs[0]!.run },
      { label: 'b again', source: 'file', fileName: 'b.json', run: other.runs[0]!.run },
    ]);
    expect(again.added.map((r) => r.label)).toEqual(['b']);
    expect(again.duplicates).toBe(2);
    library.close();

    const reopened = await RunLibrary.open(name);
    const listed = await reopened.list();
    expect(listed.map((r) => [r.label, r.source, r.fileName])).toEqual([['mine', 'app', null], ['b', 'file', 'b.json']]);
    expect(listed[0]?.run).toEqual(run);
    await reopened.delete(listed[0]!.id);
    expect((await reopened.list()).map((r) => r.label)).toEqual(['b']);
    reopened.close();
  });
});

describe('the run library keeps policies and distinct names (real IndexedDB)', () => {
  const name = `test-runs-policies-${Date.now()}`;
  const old = `test-runs-v1-${Date.now()}`;
  afterAll(async () => {
    await RunLibrary.destroy(name);
    await RunLibrary.destroy(old);
  });

  const runOf = (seed: number): RunData => {
    const parsed = parseRunFile(`${seed}.json`, json(trainResult(seed)));
    if (!parsed.ok) throw new Error('fixtures must parse');
    return parsed.runs[0]!.run;
  };

  it('keeps a run\'s policy beside it (read only when asked), numbers a label already taken, and deletes both', async () => {
    const library = await RunLibrary.open(name);
    const policy = Uint8Array.from([68, 71, 80, 70, 1, 2, 3]);
    const { added } = await library.add([
      { label: 'shop GRPO dream seed 1', source: 'app', fileName: null, run: runOf(1), policy },
      { label: 'shop GRPO dream seed 1', source: 'app', fileName: null, run: runOf(2), policy: null },
    ]);
    expect(added.map((r) => [r.label, r.policyBytes])).toEqual([['shop GRPO dream seed 1', 7], ['shop GRPO dream seed 1 #2', undefined]]);
    const more = await library.add([{ label: 'shop GRPO dream seed 1', source: 'file', fileName: 'x.json', run: runOf(3) }]);
    expect(more.added[0]?.label).toBe('shop GRPO dream seed 1 #3');
    library.close();

    const reopened = await RunLibrary.open(name);
    const listed = await reopened.list();
    expect(new Set(listed.map((r) => r.label)).size).toBe(3);
    // Listing never carries the weights.
    expect(listed.every((r) => !('policy' in r))).toBe(true);
    expect(await reopened.policy(added[0]!.id)).toEqual(policy);
    expect(await reopened.policy(added[1]!.id)).toBeNull();
    expect((await reopened.get(added[0]!.id))?.label).toBe('shop GRPO dream seed 1');
    await reopened.delete(added[0]!.id);
    expect(await reopened.policy(added[0]!.id)).toBeNull();
    expect(await reopened.get(added[0]!.id)).toBeUndefined();
    reopened.close();
  });

  it('opens a library of the first version: its runs load, without a policy, and two alike get distinct names', async () => {
    const v1 = await openDB(old, 1, { upgrade(db) { db.createObjectStore('runs', { keyPath: 'id' }).createIndex('fingerprint', 'fingerprint'); } });
    const stored = (id: string, addedAt: number, seed: number): StoredRun => ({ id, label: 'shop PPO real seed 1', source: 'app', fileName: null, addedAt, fingerprint: `f${seed}`, run: runOf(seed) });
    await v1.put('runs', stored('run-b', 2, 2));
    await v1.put('runs', stored('run-a', 1, 1));
    v1.close();

    const library = await RunLibrary.open(old);
    const listed = await library.list();
    expect(listed.map((r) => [r.id, r.label, r.policyBytes])).toEqual([['run-a', 'shop PPO real seed 1', undefined], ['run-b', 'shop PPO real seed 1 #2', undefined]]);
    expect(await library.policy('run-a')).toBeNull();
    expect(listed[1]?.run).toEqual(runOf(2));
    library.close();
  });
});
