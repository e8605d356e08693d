/**
 * The wasm backend's Slice without a copy of its whole input. tfjs-backend-wasm 4.22 reads the
 * entire input tensor back (`readSync`, a fresh ArrayBuffer the size of the input) to copy out even
 * a few rows of it. In Node that is a memcpy; in a browser worker a fresh buffer of megabytes is
 * fresh pages from the system, and slices were a tenth of the neural model's fit in the app.
 * Here the output is allocated first (an allocation may grow the wasm memory, which detaches every
 * view of it) and the rows are then copied between views of the same memory. What this kernel
 * does not handle (strings, rank above 4) goes to the backend's own.
 */
import * as tf from '@tensorflow/tfjs-core';

interface WasmBackend {
  makeOutput(shape: number[], dtype: tf.DataType): tf.TensorInfo;
  typedArrayFromHeap(t: tf.TensorInfo): Float32Array | Int32Array | Uint8Array;
}

let registered = false;

/** Registers the kernel once, over the wasm backend's own (which it falls back to). */
export function registerWasmSlice(): void {
  if (registered) return;
  const own = tf.getKernel(tf.Slice, 'wasm');
  if (!own) return;
  registered = true;
  tf.unregisterKernel(tf.Slice, 'wasm');
  tf.registerKernel({
    kernelName: tf.Slice,
    backendName: 'wasm',
    kernelFunc: (args) => {
      const x = args.inputs['x'] as tf.TensorInfo;
      const { begin, size } = args.attrs as unknown as tf.SliceAttrs;
      if (x.dtype === 'string' || x.shape.length > 4) return own.kernelFunc(args);
      const backend = args.backend as unknown as WasmBackend;
      const [from, extent] = tf.slice_util.parseSliceParams(x, begin, size) as [number[], number[]];
      const out = backend.makeOutput(extent, x.dtype);
      // Views only after the allocation above.
      const source = backend.typedArrayFromHeap(x);
      const target = backend.typedArrayFromHeap(out);
      copySlice(source, x.shape, from, extent, target);
      return out;
    },
  });
}

/** Copies the block of `shape` starting at `from`, `extent` long on each axis, into `target` in order. */
function copySlice(source: ArrayLike<number> & { subarray(a: number, b: number): ArrayLike<number> }, shape: readonly number[], from: readonly number[], extent: readonly number[], target: { set(values: ArrayLike<number>, offset: number): void }): void {
  if (extent.some((e) => e === 0)) return;
  // The trailing axes taken whole, and the one before them, make one contiguous run per index of the axes before.
  let inner = shape.length - 1;
  while (inner > 0 && from[inner] === 0 && extent[inner] === shape[inner]) inner--;
  if (inner < 0) {
    target.set(source.subarray(0, 1), 0);
    return;
  }
  const strides = new Array<number>(shape.length).fill(1);
  for (let axis = shape.length - 2; axis >= 0; axis--) strides[axis] = (strides[axis + 1] as number) * (shape[axis + 1] as number);
  const run = (extent[inner] as number) * (strides[inner] as number);
  const start = (from[inner] as number) * (strides[inner] as number);
  const rows = extent.slice(0, inner).reduce((a, b) => a * b, 1);
  // Walk the axes before `inner` as an odometer.
  const index = new Array<number>(inner).fill(0);
  for (let r = 0; r < rows; r++) {
    let offset = start;
    for (let axis = 0; axis < inner; axis++) offset += ((from[axis] as number) + (index[axis] as number)) * (strides[axis] as number);
    target.set(source.subarray(offset, offset + run), r * run);
    for (let axis = inner - 1; axis >= 0; axis--) {
      index[axis] = (index[axis] as number) + 1;
      if ((index[axis] as number) < (extent[axis] as number)) break;
      index[axis] = 0;
    }
  }
}
