/**
 * The safetensors layout, so that a policy's weights can be read without this project: an 8-byte
 * little-endian header length, a JSON header (each tensor's dtype, shape and byte range, plus a
 * `__metadata__` map of strings), padded with spaces to 8 bytes, then the raw little-endian
 * tensors back to back. numpy alone reads it (the README's snippet). Only float32 (`F32`) tensors
 * are written and read: the policy has no other kind.
 */
import { DreamGymError } from '../core/errors.ts';
import { boundedText, excerpt } from '../core/text.ts';
import { showValue, type WeightEntry } from '../core/weight-file.ts';

/** A safetensors file that cannot be read, with what is wrong in it. */
export class SafetensorsError extends DreamGymError {
  constructor(message: string) {
    super('safetensors', message);
  }
}

/** Largest header accepted (the format's reference reader refuses above 100 MB; ours are a few KB). */
const MAX_HEADER_BYTES = 16 * 1024 * 1024;
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

function bytesOf(data: Float32Array): Uint8Array {
  if (LITTLE_ENDIAN) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  const out = new Uint8Array(data.length * 4);
  const view = new DataView(out.buffer);
  data.forEach((x, i) => view.setFloat32(i * 4, x, true));
  return out;
}

function floatsOf(bytes: Uint8Array): Float32Array {
  const out = new Float32Array(bytes.length / 4);
  if (LITTLE_ENDIAN) new Uint8Array(out.buffer).set(bytes);
  else {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (let i = 0; i < out.length; i++) out[i] = view.getFloat32(i * 4, true);
  }
  return out;
}

const size = (shape: readonly number[]): number => shape.reduce((a, b) => a * b, 1);

/** The tensors (in order) and string metadata as one safetensors file. */
export function encodeSafetensors(tensors: readonly WeightEntry[], metadata: Readonly<Record<string, string>> = {}): Uint8Array {
  const header: Record<string, unknown> = Object.keys(metadata).length > 0 ? { __metadata__: metadata } : {};
  let offset = 0;
  for (const t of tensors) {
    if (t.name === '__metadata__' || t.name in header) throw new SafetensorsError(`tensor name ${JSON.stringify(t.name)} is used twice or is reserved`);
    if (size(t.shape) !== t.data.length) throw new SafetensorsError(`tensor ${t.name} has shape [${t.shape.join(', ')}] but ${t.data.length} values`);
    header[t.name] = { dtype: 'F32', shape: t.shape, data_offsets: [offset, offset + t.data.byteLength] };
    offset += t.data.byteLength;
  }
  let json = new TextEncoder().encode(JSON.stringify(header));
  const padded = Math.ceil(json.length / 8) * 8;
  if (padded !== json.length) json = new TextEncoder().encode(JSON.stringify(header) + ' '.repeat(padded - json.length));
  const out = new Uint8Array(8 + json.length + offset);
  new DataView(out.buffer).setBigUint64(0, BigInt(json.length), true);
  out.set(json, 8);
  let at = 8 + json.length;
  for (const t of tensors) {
    out.set(bytesOf(t.data), at);
    at += t.data.byteLength;
  }
  return out;
}

/** Reads a safetensors file of float32 tensors, in the order of their bytes; every range and shape is checked. */
export function decodeSafetensors(bytes: Uint8Array): { tensors: WeightEntry[]; metadata: Record<string, string> } {
  if (bytes.length < 8) throw new SafetensorsError(`the file is ${bytes.length} bytes: too short for a safetensors header`);
  const headerLength = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getBigUint64(0, true);
  if (headerLength > BigInt(Math.min(MAX_HEADER_BYTES, bytes.length - 8))) throw new SafetensorsError(`the header says it is ${headerLength} bytes, more than the file holds (${bytes.length - 8} after the length)`);
  const start = 8 + Number(headerLength);
  let header: unknown;
  try {
    header = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(8, start)));
  } catch (error) {
    throw new SafetensorsError(`the header is not JSON: ${boundedText((error as Error).message)}`);
  }
  if (typeof header !== 'object' || header === null || Array.isArray(header)) throw new SafetensorsError('the header is not a JSON object');
  const metadata: Record<string, string> = {};
  const entries: { name: string; shape: number[]; begin: number; end: number }[] = [];
  for (const [name, value] of Object.entries(header as Record<string, unknown>)) {
    if (name === '__metadata__') {
      if (typeof value !== 'object' || value === null) throw new SafetensorsError('__metadata__ is not an object of strings');
      for (const [key, text] of Object.entries(value)) {
        if (typeof text !== 'string') throw new SafetensorsError(`__metadata__ entry ${excerpt(key)} is not a string`);
        metadata[key] = text;
      }
      continue;
    }
    const t = value as { dtype?: unknown; shape?: unknown; data_offsets?: unknown };
    // A tensor's name is the file's to choose: megabytes, NUL bytes, line breaks.
    const tensor = `tensor ${boundedText(name, 100)}`;
    if (t.dtype !== 'F32') throw new SafetensorsError(`${tensor} is ${showValue(t.dtype)}; only F32 tensors are read`);
    if (!Array.isArray(t.shape) || !t.shape.every((d) => Number.isSafeInteger(d) && d >= 0)) throw new SafetensorsError(`${tensor} has no valid shape`);
    const offsets = t.data_offsets;
    if (!Array.isArray(offsets) || offsets.length !== 2 || !offsets.every((o) => Number.isSafeInteger(o) && o >= 0) || offsets[0] > offsets[1]) throw new SafetensorsError(`${tensor} has no valid data_offsets`);
    const [begin, end] = offsets as [number, number];
    if ((end - begin) !== size(t.shape as number[]) * 4) throw new SafetensorsError(`${tensor}: shape ${showValue(t.shape)} needs ${size(t.shape as number[]) * 4} bytes, its offsets give ${end - begin}`);
    entries.push({ name, shape: t.shape as number[], begin, end });
  }
  entries.sort((a, b) => a.begin - b.begin);
  // The format's rule: the tensors cover the data exactly, with no gap, overlap or trailing byte.
  let expected = 0;
  for (const e of entries) {
    if (e.begin !== expected) throw new SafetensorsError(`tensor ${boundedText(e.name, 100)} starts at byte ${e.begin} of the data, not ${expected}: a gap or an overlap`);
    expected = e.end;
  }
  if (start + expected !== bytes.length) throw new SafetensorsError(`the tensors end at byte ${start + expected} but the file has ${bytes.length}`);
  return { tensors: entries.map((e) => ({ name: e.name, shape: e.shape, data: floatsOf(bytes.subarray(start + e.begin, start + e.end)) })), metadata };
}
