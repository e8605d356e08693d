/**
 * The one place that chooses a TensorFlow.js backend. The browser trainer prefers webgpu, then
 * wasm, then cpu; Node uses wasm (cpu when a run must be bit-reproducible). Whatever is chosen is
 * returned so that every result can record it.
 */
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import '@tensorflow/tfjs-backend-wasm';
import { PLATFORM_BACKENDS, preparePlatform } from '#tf-platform';
import { DreamGymError, errorMessage, UsageError } from '../core/errors.ts';
import { excerpt } from '../core/text.ts';
import { registerWasmSlice } from './wasm-slice.ts';

export type BackendName = 'webgpu' | 'wasm' | 'cpu';
export const BACKENDS: readonly BackendName[] = ['webgpu', 'wasm', 'cpu'];

let prepared = false;

/** Backends this platform can offer, most preferred first. */
export function platformBackends(): readonly BackendName[] {
  return PLATFORM_BACKENDS;
}

export class BackendUnavailableError extends DreamGymError {
  constructor(
    tried: readonly string[],
    /** One per backend tried, `name: why`. */
    readonly reasons: readonly string[],
  ) {
    super('backend-unavailable', `no TensorFlow.js backend could start (tried ${tried.join(', ')}): ${reasons.join('; ')}`);
  }
}

/**
 * Switch to the first backend in `preference` that initialises here. Backends this platform does
 * not offer are skipped with a reason, never silently substituted.
 */
export async function useBackend(preference: readonly BackendName[] = PLATFORM_BACKENDS): Promise<BackendName> {
  if (!prepared) {
    preparePlatform();
    registerWasmSlice();
    prepared = true;
  }
  const reasons: string[] = [];
  for (const name of preference) {
    if (!(PLATFORM_BACKENDS as readonly string[]).includes(name)) {
      reasons.push(`${name}: not available on this platform`);
      continue;
    }
    if (tf.getBackend() === name) return name;
    try {
      if (await tf.setBackend(name)) {
        await tf.ready();
        return name;
      }
      reasons.push(`${name}: failed to initialise`);
    } catch (error) {
      reasons.push(`${name}: ${errorMessage(error)}`);
    }
  }
  throw new BackendUnavailableError(preference, reasons);
}

export function parseBackend(name: string): BackendName {
  if ((BACKENDS as readonly string[]).includes(name)) return name as BackendName;
  throw new UsageError(`unknown backend ${excerpt(name, 60)}; choose one of ${BACKENDS.join(', ')}`);
}

/**
 * Whether the backend in use computes on the host's CPU (wasm, cpu): there a loop over a sparse
 * input's nonzeros beats a matmul over its zeros, and reading a tensor back is a copy at most; on a
 * GPU backend a synchronous read stalls the queue and a matmul is what the device does best.
 */
export function backendOnHost(): boolean {
  const backend = tf.getBackend();
  return backend === 'wasm' || backend === 'cpu';
}

/**
 * A float32 tensor's values for the host to read now, without a copy where the backend allows it:
 * on wasm a view into the backend's memory, valid only until tfjs next allocates (read it before
 * making another tensor); on cpu the backend's own array; elsewhere a synchronous read (a copy).
 * Never write through it. In a browser worker each copy of megabytes is fresh pages from the
 * system: the host-side layers read their weights and gradients this way (dense.ts).
 */
export function hostValues(t: tf.Tensor): Float32Array {
  if (t.dtype !== 'float32') throw new TypeError(`hostValues reads float32 tensors, not ${t.dtype}`);
  const backend = tf.backend() as unknown as { typedArrayFromHeap?: (t: tf.TensorInfo) => Float32Array; dataIdMap?: { has(id: object): boolean } };
  if (tf.getBackend() === 'wasm' && backend.typedArrayFromHeap && backend.dataIdMap?.has(t.dataId)) return backend.typedArrayFromHeap(t);
  return t.dataSync() as Float32Array;
}

const scratch = new Map<string, Float32Array>();

/**
 * An array of `n` to fill and make a tensor from at once. On wasm, where making a tensor copies the
 * values into wasm memory there and then, one buffer per `slot` serves every call (zeroed when
 * asked): in a browser worker a fresh buffer of megabytes is fresh pages from the system, and the
 * kernel's work on them was much of the app's CPU (docs/benchmarks.md, the guided run). So an array
 * is valid only until its slot is asked for again.
 * Other backends keep the array a tensor is made from (cpu) or upload it later (GPUs): there each
 * call gets a new one.
 */
export function uploadArray(slot: string, n: number, zeroed: boolean): Float32Array {
  if (tf.getBackend() !== 'wasm') return new Float32Array(n);
  let buffer = scratch.get(slot);
  if (!buffer || buffer.length < n) {
    buffer = new Float32Array(Math.max(n, 2 * (buffer?.length ?? 0)));
    scratch.set(slot, buffer);
    return buffer.subarray(0, n);
  }
  const out = buffer.subarray(0, n);
  if (zeroed) out.fill(0);
  return out;
}

export { tf };
