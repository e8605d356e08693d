import { beforeAll, describe, expect, it } from 'vitest';
import { Rng } from '../../../src/core/rng.ts';
import { hostValues, tf, useBackend } from '../../../src/platform/tf.ts';

/** A slice computed on one backend, read back as plain numbers. */
async function sliceOn(backend: 'wasm' | 'cpu', values: Float32Array, shape: number[], begin: number[], size: number[]): Promise<number[]> {
  await useBackend([backend]);
  return tf.tidy(() => Array.from(tf.slice(tf.tensor(values, shape), begin, size).dataSync()));
}

describe("the wasm backend's slice (platform/wasm-slice.ts)", () => {
  beforeAll(async () => {
    await useBackend(['wasm']);
  });

  it('replaces the backend kernel and gives what the cpu backend gives, for every rank and block', async () => {
    expect(tf.getKernel('Slice', 'wasm')?.kernelFunc.toString()).toMatch(/copySlice/);
    const rng = new Rng('wasm-slice');
    let checked = 0;
    for (let rank = 1; rank <= 4; rank++) {
      for (let trial = 0; trial < 12; trial++) {
        const shape = Array.from({ length: rank }, () => 1 + Math.floor(rng.next() * 5));
        const begin = shape.map((n) => Math.floor(rng.next() * n));
        // Some blocks run to the end of an axis (size -1), some take whole trailing axes, some are empty.
        const size = shape.map((n, axis) => (trial % 4 === 0 ? -1 : trial % 5 === 0 && axis === 0 ? 0 : Math.floor(rng.next() * (n - (begin[axis] as number) + 1))));
        const values = Float32Array.from({ length: shape.reduce((a, b) => a * b, 1) }, (_, i) => i + 0.5);
        const onWasm = await sliceOn('wasm', values, shape, begin, size);
        const onCpu = await sliceOn('cpu', values, shape, begin, size);
        expect(onWasm, `shape ${shape} begin ${begin} size ${size}`).toEqual(onCpu);
        checked++;
      }
    }
    expect(checked).toBe(48);
    await useBackend(['wasm']);
    // What it leaves to the backend's own kernel: strings.
    expect(tf.tidy(() => tf.slice(tf.tensor(['a', 'b', 'c']), [1], [2]).arraySync())).toEqual(['b', 'c']);
  });

  it('reads a tensor in place on wasm, and the view sees what the tensor holds', () => {
    const t = tf.tensor2d([1, 2, 3, 4], [2, 2]);
    const view = hostValues(t);
    expect(Array.from(view)).toEqual([1, 2, 3, 4]);
    // In place: the same memory as the backend's, not a copy of it.
    const backend = tf.backend() as unknown as { wasm: { HEAPU8: Uint8Array } };
    expect(view.buffer).toBe(backend.wasm.HEAPU8.buffer);
    t.dispose();
    expect(() => hostValues(tf.tensor1d([1], 'int32'))).toThrow(/float32/);
  });
});
