/**
 * The neural model's fast paths compute what the plain ones did: phrase search without a regular
 * expression, the heads' hand-written gradients on pre-split batches, and Adam on the host.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Rng } from '../../../src/core/rng.ts';
import { memo } from '../../../src/experience/neural/memo.ts';
import { containsPhrase, mapper, type PhraseMap } from '../../../src/experience/neural/phrase-map.ts';
import { HostAdam } from '../../../src/experience/neural/host-adam.ts';
import { disposeBatch, headBatch, headLoss, NeuralNetwork, Rows, type HeadName, type NamedWeight, type NeuralArchitecture } from '../../../src/experience/neural/network.ts';
import { bucketedInputDense } from '../../../src/platform/dense.ts';
import { tf, useBackend } from '../../../src/platform/tf.ts';

/** The expression containsPhrase replaced. */
function phraseByRegExp(text: string, phrase: string): boolean {
  if (phrase === '') return false;
  return new RegExp(`(?<![\\w.])${phrase.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w])`).test(text);
}

describe('containsPhrase', () => {
  it('agrees with the word-boundary expression on texts made of words, dots, signs and spaces', () => {
    const piece = fc.constantFrom('a', 'ab', 'b', '1', '.', ' ', '$', '_', '-', 'é', ':', '|', 'x.y');
    const text = fc.array(piece, { maxLength: 12 }).map((p) => p.join(''));
    fc.assert(
      fc.property(text, text, (t, p) => {
        expect(containsPhrase(t, p)).toBe(phraseByRegExp(t, p));
      }),
      { numRuns: 3000, seed: 7 },
    );
  });

  it('finds a later whole-word occurrence after an embedded one', () => {
    expect(containsPhrase('redblue red', 'red')).toBe(true);
    expect(containsPhrase('2.5 kg', '5 kg')).toBe(false);
    expect(containsPhrase('size: 5 kg', '5 kg')).toBe(true);
  });
});

/** The phrase map as one case-insensitive expression over every line (what mapper ran before its substring check). */
function mapByRegExp(map: PhraseMap, text: string): string {
  const lookup = new Map<string, string>();
  for (const [from, to] of [...map].sort((p, q) => q[0].length - p[0].length)) if (from !== '' && from !== to && !lookup.has(from.toLowerCase())) lookup.set(from.toLowerCase(), to);
  if (lookup.size === 0) return text;
  const pattern = new RegExp(`(?<![\\w.])(${[...lookup.keys()].map((k) => k.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})(?![\\w])`, 'gi');
  return text.replace(pattern, (m) => lookup.get(m.toLowerCase()) ?? m);
}

describe('memo', () => {
  it('when full, forgets its oldest entry and keeps the rest (a working set just over the bound still mostly hits)', () => {
    const computed: number[] = [];
    const double = memo((k: number) => {
      computed.push(k);
      return 2 * k;
    }, 3);
    for (const k of [1, 2, 3, 4]) double(k);
    expect([double(2), double(3), double(4)]).toEqual([4, 6, 8]);
    expect(computed).toEqual([1, 2, 3, 4]);
    expect(double(1)).toBe(2);
    expect(computed).toEqual([1, 2, 3, 4, 1]);
  });

  it('computes again exactly what a first-in first-out store of the same bound forgets, over many turns of its ring', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 6 }), fc.array(fc.integer({ min: 0, max: 9 }), { maxLength: 200 }), (max, keys) => {
        const computed: number[] = [];
        const square = memo((k: number) => {
          computed.push(k);
          return k * k;
        }, max);
        // The reference: a queue of the keys held, the oldest first.
        const held: number[] = [];
        const expected: number[] = [];
        for (const k of keys) {
          expect(square(k)).toBe(k * k);
          if (held.includes(k)) continue;
          expected.push(k);
          if (held.length === max) held.shift();
          held.push(k);
        }
        expect(computed).toEqual(expected);
      }),
      { numRuns: 500, seed: 58 },
    );
  });

  it('forgets its oldest entry without walking its table (a full memo walked past every entry it had deleted, tens of microseconds a miss)', () => {
    const words = memo((text: string) => text.split(' '));
    for (let i = 0; i < 1 << 16; i++) words(`filler ${i}`);
    const walked: string[] = [];
    const { keys, entries, forEach } = Map.prototype;
    const iterate = Map.prototype[Symbol.iterator];
    // Any walk over a Map while the full memo misses is recorded (a Map's first key is found by walking past its deleted entries).
    Map.prototype.keys = function (this: Map<unknown, unknown>) {
      walked.push('keys');
      return keys.call(this);
    };
    Map.prototype.entries = function (this: Map<unknown, unknown>) {
      walked.push('entries');
      return entries.call(this);
    };
    Map.prototype.forEach = function (this: Map<unknown, unknown>, ...args: Parameters<Map<unknown, unknown>['forEach']>) {
      walked.push('forEach');
      return forEach.apply(this, args);
    };
    Map.prototype[Symbol.iterator] = function (this: Map<unknown, unknown>) {
      walked.push('iterator');
      return iterate.call(this);
    };
    try {
      for (let i = 0; i < 100; i++) expect(words(`new ${i}`)).toEqual(['new', String(i)]);
    } finally {
      Object.assign(Map.prototype, { keys, entries, forEach, [Symbol.iterator]: iterate });
    }
    expect(walked).toEqual([]);
  });
});

describe('mapper', () => {
  it('maps every text as the plain expression does, the substring check included (ASCII or not)', () => {
    const word = fc.constantFrom('Mug', 'mug', 'MUG', 'apple', 'a', '2', 'ſ', 'K', 'ﬀ', 'counter top', 'b0vs');
    const text = fc.array(fc.oneof(word, fc.constantFrom(' ', '.', ': ', ' | ', '-')), { maxLength: 10 }).map((p) => p.join(''));
    const map = fc.array(fc.tuple(word, fc.constantFrom('cup', 'Egg', 'kettle 3', '')), { maxLength: 3 });
    fc.assert(
      fc.property(map, text, (m, t) => {
        expect(mapper(m)(t)).toBe(mapByRegExp(m, t));
      }),
      { numRuns: 3000, seed: 11 },
    );
  });

  it('picks, where phrases overlap, the one the expression would: leftmost, then longest, then first given', () => {
    const word = fc.constantFrom('red', 'red mug', 'mug', 'mug 2', '2', 'red mug 2', 'x.red', 'red_', 'a b', 'b a');
    const text = fc.array(fc.oneof(word, fc.constantFrom(' ', '.', ', ', '|', '-', '_')), { maxLength: 24 }).map((p) => p.join(''));
    const map = fc.array(fc.tuple(word, fc.constantFrom('cup', 'red', 'mug 2', 'Z')), { maxLength: 7 });
    fc.assert(
      fc.property(map, text, (m, t) => {
        expect(mapper(m)(t)).toBe(mapByRegExp(m, t));
      }),
      { numRuns: 3000, seed: 12 },
    );
  });
});

const arch: NeuralArchitecture = {
  kind: 'candidate-mlp',
  heads: {
    line: { dense: 3, buckets: 5, hidden: 4, outputs: 1 },
    action: { dense: 2, buckets: 3, hidden: 4, outputs: 1 },
    transition: { dense: 2 + 3 * 3, buckets: 4, hidden: 5, outputs: 2, requirements: { slots: 3, features: 3, hidden: 2 } },
    reasoning: { dense: 2, buckets: 2, hidden: 3, outputs: 1 },
  },
};

function rowsOf(head: HeadName, n: number, rng: Rng): Rows {
  const shape = arch.heads[head];
  const rows = new Rows(shape, 2);
  for (let i = 0; i < n; i++) {
    const dense = Array.from({ length: shape.dense }, () => rng.next() * 2 - 1);
    if (shape.requirements) for (let s = 0; s < shape.requirements.slots; s++) dense[shape.dense - shape.requirements.slots * shape.requirements.features + s * shape.requirements.features] = rng.next() < 0.6 ? 1 : 0;
    // Every fourth row leaves its second slot empty (the lookup's zero row).
    rows.push({ dense, hashed: [`a${i % 3}`, i % 4 === 0 ? '' : `b${i % 5}`] }, Array.from({ length: shape.outputs }, () => (rng.next() < 0.5 ? 1 : 0)));
  }
  return rows;
}

/** The head as plain tfjs ops with tfjs's own gradients, on one whole-row matrix (the reference). */
function referenceLogits(weights: Map<string, tf.Tensor>, head: HeadName, x: tf.Tensor2D): tf.Tensor2D {
  const w = (name: string) => weights.get(`${head}/${name}`) as tf.Tensor;
  const mlp = (input: tf.Tensor2D) => {
    const h1 = tf.relu(tf.add(tf.matMul(input, w('w1') as tf.Tensor2D), w('b1')));
    const h2 = tf.relu(tf.add(tf.matMul(h1 as tf.Tensor2D, w('w2') as tf.Tensor2D), w('b2')));
    return tf.add(tf.matMul(h2 as tf.Tensor2D, w('w3') as tf.Tensor2D), w('b3')) as tf.Tensor2D;
  };
  const { dense, buckets, requirements: req } = arch.heads[head];
  if (!req) return mlp(x);
  const n = x.shape[0];
  const own = dense - req.slots * req.features;
  const rows = tf.reshape(tf.slice(x, [0, own], [n, req.slots * req.features]), [n * req.slots, req.features]) as tf.Tensor2D;
  const valid = tf.reshape(tf.slice(rows, [0, 0], [n * req.slots, 1]), [n, req.slots]);
  const hidden = tf.relu(tf.add(tf.matMul(rows, w('r1') as tf.Tensor2D), w('rb1'))) as tf.Tensor2D;
  const score = tf.reshape(tf.sigmoid(tf.add(tf.matMul(hidden, w('r2') as tf.Tensor2D), w('rb2'))), [n, req.slots]);
  const count = tf.sum(valid, 1, true);
  const met = tf.where(tf.greater(count, 0), tf.div(tf.sum(tf.mul(score, valid), 1, true), tf.maximum(count, 1)), tf.onesLike(count));
  const out = mlp(tf.concat([tf.slice(x, [0, 0], [n, own]), tf.slice(x, [0, dense], [n, buckets]), met], 1) as tf.Tensor2D);
  const reward = tf.clipByValue(tf.mul(tf.sigmoid(tf.slice(out, [0, 0], [n, 1])), met), 1e-6, 1 - 1e-6);
  return tf.concat([tf.sub(tf.log(reward), tf.log1p(tf.neg(reward))), tf.slice(out, [0, 1], [n, 1])], 1) as tf.Tensor2D;
}

/** Whole-row matrix of some rows, as the head lays a row out (dense, then bucket counts). */
function wholeRows(rows: Rows, indices: number[]): tf.Tensor2D {
  const { dense, buckets } = rows.shape;
  const out = new Float32Array(indices.length * (dense + buckets));
  indices.forEach((row, r) => {
    for (let j = 0; j < dense; j++) out[r * (dense + buckets) + j] = rows.dense[row * dense + j] as number;
    for (let j = 0; j < rows.slots; j++) {
      const b = rows.buckets[row * rows.slots + j] as number;
      if (b >= 0) out[r * (dense + buckets) + dense + b] = (out[r * (dense + buckets) + dense + b] as number) + 1;
    }
  });
  return tf.tensor2d(out, [indices.length, dense + buckets]);
}

describe('the neural heads on pre-split batches', () => {
  // wasm too: its scatter must sum a bucket's duplicates (rows share buckets here) as the cpu's does.
  for (const [backend, head] of [['cpu', 'line'], ['cpu', 'transition'], ['wasm', 'line'], ['wasm', 'transition']] as const) {
    it(`${head} on ${backend}: logits and every weight's gradient equal the plain-ops reference`, async () => {
      await useBackend([backend]);
      const rng = new Rng(`speed-${head}`);
      const network = new NeuralNetwork(arch, { seed: 5 });
      const rows = rowsOf(head, 9, rng);
      const indices = [4, 0, 7, 2, 8, 1];
      const weights = new Map((await network.getWeights()).map((w: NamedWeight) => [w.name, tf.variable(tf.tensor(w.data, w.shape))]));
      const names = [...weights.keys()].filter((n) => n.startsWith(`${head}/`));
      const targets = tf.tensor2d(rows.targetMatrix(indices), [indices.length, rows.shape.outputs]);

      const batch = headBatch(rows.batch(indices, true), rows.shape);
      const fast = tf.variableGrads(() => headLoss(head, network.forward(head, batch), targets), network.headVariables(head));
      const x = wholeRows(rows, indices);
      const reference = tf.variableGrads(() => headLoss(head, referenceLogits(weights, head, x), targets), names.map((n) => weights.get(n) as tf.Variable));

      expect((await fast.value.data())[0]).toBeCloseTo((await reference.value.data())[0] as number, 5);
      for (const [k, variable] of network.headVariables(head).entries()) {
        const got = await (fast.grads[variable.name] as tf.Tensor).data();
        const want = await (reference.grads[(weights.get(names[k] as string) as tf.Variable).name] as tf.Tensor).data();
        expect(got.length).toBe(want.length);
        got.forEach((g, j) => expect(g).toBeCloseTo(want[j] as number, 5));
      }
      disposeBatch(batch);
      tf.dispose([x, targets, fast.value, reference.value, ...Object.values(fast.grads), ...Object.values(reference.grads), ...weights.values()]);
      network.dispose();
    });
  }

  it('sums the bucket gradient on the device (GPU backends) as on the host (wasm, cpu), and refuses ragged slots', async () => {
    await useBackend(['cpu']);
    const rng = new Rng('bucket-gradient');
    const x = tf.tensor2d(Float32Array.from({ length: 6 * 3 }, () => rng.next() - 0.5), [6, 3]);
    // Rows share buckets 1 and 2; 4 (= B) is an empty slot.
    const host = Int32Array.from([1, 2, 2, 4, 0, 1, 3, 1, 1, 2, 4, 4]);
    const buckets = { ids: tf.tensor1d(host, 'int32'), owners: tf.tensor1d(Int32Array.from(host, (_, i) => Math.floor(i / 2)), 'int32'), host };
    const w = tf.variable(tf.tensor2d(Float32Array.from({ length: 7 * 5 }, () => rng.next() - 0.5), [7, 5]));
    const b = tf.variable(tf.zeros([5])) as tf.Variable<tf.Rank.R1>;
    const grads = (on: 'host' | 'device') => tf.variableGrads(() => tf.sum(tf.square(bucketedInputDense(x, undefined, buckets, w, b, 'relu', on))) as tf.Scalar, [w, b]);
    const onHost = grads('host');
    const onDevice = grads('device');
    const got = await (onDevice.grads[w.name] as tf.Tensor).data();
    const want = await (onHost.grads[w.name] as tf.Tensor).data();
    got.forEach((g, j) => expect(g).toBeCloseTo(want[j] as number, 6));
    expect(Array.from(want).some((g) => g !== 0)).toBe(true);
    const ragged = { ...buckets, host: host.subarray(0, 11) };
    expect(() => bucketedInputDense(x, undefined, ragged, w, b, 'relu')).toThrow(/11 bucket entries for 6 rows/);
    tf.dispose([x, w, b, buckets.ids, buckets.owners, onHost.value, onDevice.value, ...Object.values(onHost.grads), ...Object.values(onDevice.grads)]);
  });

  it('HostAdam takes the steps tf.train.adam takes', async () => {
    await useBackend(['cpu']);
    const rng = new Rng('adam');
    const start = Float32Array.from({ length: 12 }, () => rng.next() - 0.5);
    const target = tf.tensor2d(Float32Array.from({ length: 12 }, () => rng.next()), [3, 4]);
    const loss = (v: tf.Variable) => () => tf.sum(tf.square(tf.sub(tf.mul(v, v), target))) as tf.Scalar;
    const ours = tf.variable(tf.tensor2d(start, [3, 4]));
    const theirs = tf.variable(tf.tensor2d(start, [3, 4]));
    const host = await HostAdam.create([ours], 0.05);
    const reference = tf.train.adam(0.05);
    for (let i = 0; i < 25; i++) {
      await host.minimize(loss(ours));
      tf.dispose(reference.minimize(loss(theirs), true, [theirs]) ?? []);
    }
    const got = await ours.data();
    const want = await theirs.data();
    got.forEach((g, j) => expect(g).toBeCloseTo(want[j] as number, 5));
    expect(Math.abs((got[0] as number) - (start[0] as number))).toBeGreaterThan(0.01);
    reference.dispose();
    tf.dispose([ours, theirs, target]);
  });
});

describe('a fit on wasm', () => {
  it('lets a stop arrive while it runs: it turns the event loop over now and then', async () => {
    await useBackend(['wasm']);
    const { MemoryReplayStore } = await import('../../../src/replay/memory-store.ts');
    const { ReplayBuffer } = await import('../../../src/replay/retrieval.ts');
    const { seedEpisodes } = await import('../../../src/replay/seed.ts');
    const { envSpec } = await import('../../../src/envs/registry.ts');
    const { fitNeuralModel } = await import('../../../src/experience/neural/fit.ts');
    const buffer = await ReplayBuffer.open(new MemoryReplayStore());
    for await (const e of seedEpisodes({ spec: envSpec('shop'), episodes: 40, mix: { oracle: 0.5, random: 0.5 }, seed: 1, createdAt: 0 })) await buffer.add(e.transitions);
    const controller = new AbortController();
    // A timer, as a Stop message is: it can only run if the fit gives the event loop a turn.
    const timer = setTimeout(() => controller.abort(), 300);
    const started = performance.now();
    await expect(fitNeuralModel({ buffer, env: 'shop', epochs: 200, signal: controller.signal })).rejects.toThrow();
    clearTimeout(timer);
    expect(performance.now() - started).toBeLessThan(5000);
    await useBackend(['cpu']);
  }, 60_000);
});
