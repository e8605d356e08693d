/**
 * Policy files (.dgp): one shareable file holding a trained policy.
 *
 * Layout (all integers little-endian):
 *   bytes 0..3   magic "DGPF"
 *   bytes 4..7   uint32 header byte length N
 *   bytes 8..    N bytes of UTF-8 JSON header (PolicyFileHeader)
 *   then         zero padding up to a 4-byte boundary (counted from the start of the file)
 *   then         the weights: float32 little-endian, concatenated in manifest order
 * Nothing may follow the weights.
 *
 * Loading never evaluates code (JSON.parse only), checks size, magic, version, every header field,
 * shapes, length and checksum, rejects NaN/Infinity, and copies weights into fresh Float32Arrays.
 * Pure TypeScript: runs in Node, a page and a worker.
 */

import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { DreamGymError, errorMessage } from '../core/errors.ts';

export const DGP_MAGIC = 'DGPF';
export const DGP_VERSION = 1;
/** Default cap on the size of a file accepted by decodePolicyFile / readPolicyHeader. */
export const DGP_MAX_BYTES = 64 * 1024 * 1024;
export const DGP_MAX_HEADER_BYTES = 1024 * 1024;

const FORMAT = 'dreamgym-policy';
const PREFIX_BYTES = 8; // magic + header length

export interface WeightEntry {
  name: string;
  shape: number[];
  data: Float32Array;
}

export interface WeightManifestEntry {
  name: string;
  shape: number[];
  dtype: 'float32';
}

/** What the caller provides. Objects are opaque JSON to this module. */
export interface PolicyFileMeta {
  env: string;
  algorithm: string;
  backend: string;
  architecture: Record<string, unknown>;
  featurizer: Record<string, unknown>;
  training: Record<string, unknown>;
  evaluation: Record<string, unknown> | null;
  createdAt: string;
}

export interface PolicyFileHeader extends PolicyFileMeta {
  format: 'dreamgym-policy';
  version: number;
  weights: WeightManifestEntry[];
  weightsByteLength: number;
  /** Hex of SHA-256 over the weight bytes exactly as stored. */
  weightsSha256: string;
}

export interface DecodeOptions {
  /** Largest file accepted, in bytes (default DGP_MAX_BYTES). */
  maxBytes?: number;
  /**
   * The shapes the caller's network needs for this header (derived from header.architecture).
   * Throw a PolicyFileError('shape', ...) yourself if it can't; decode compares names, order and
   * shapes to the manifest.
   */
  expectedWeights?: (header: PolicyFileHeader) => { name: string; shape: number[] }[];
}

export type PolicyFileProblem =
  | 'oversized'
  | 'not-a-policy'
  | 'truncated'
  | 'header'
  | 'version'
  | 'shape'
  | 'checksum'
  | 'non-finite';

/** A policy file could not be written or read; `problem` says which kind of trouble. */
export class PolicyFileError extends DreamGymError {
  readonly problem: PolicyFileProblem;
  constructor(problem: PolicyFileProblem, message: string, options?: { cause?: unknown }) {
    super(`policy-file-${problem}`, message, options);
    this.problem = problem;
  }
}

const LITTLE_ENDIAN_HOST = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

// ---------------------------------------------------------------------------------------------
// Small helpers

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A short, safe rendering of an untrusted value for error messages. */
function show(value: unknown): string {
  let text: string;
  try {
    text = value === undefined ? 'undefined' : (JSON.stringify(value) ?? String(value));
  } catch {
    text = String(value);
  }
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function showShape(shape: readonly number[]): string {
  return `[${shape.join(', ')}]`;
}

function sizeText(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${bytes} B`;
}

function isShape(value: unknown): value is number[] {
  return Array.isArray(value) && value.every((d) => Number.isSafeInteger(d) && (d as number) > 0);
}

/** Element count of a shape, or -1 if it is too large to be a real tensor. */
function elementCount(shape: readonly number[]): number {
  let n = 1;
  for (const d of shape) n *= d;
  return Number.isSafeInteger(n) ? n : -1;
}

function align4(n: number): number {
  return (n + 3) & ~3;
}

function firstNonFinite(data: Float32Array): number {
  for (let i = 0; i < data.length; i++) {
    if (!Number.isFinite(data[i]!)) return i;
  }
  return -1;
}

function nonFiniteName(value: number): string {
  return Number.isNaN(value) ? 'NaN' : value > 0 ? 'Infinity' : '-Infinity';
}

// ---------------------------------------------------------------------------------------------
// Header validation (shared by encode, decode and readPolicyHeader)

function headerError(message: string): PolicyFileError {
  return new PolicyFileError('header', message);
}

function requireString(raw: JsonObject, field: string, nonEmpty: boolean): string {
  const value = raw[field];
  if (typeof value !== 'string' || (nonEmpty && value.length === 0)) {
    throw headerError(
      `header field ${field} must be a ${nonEmpty ? 'non-empty ' : ''}string, got ${show(value)}`,
    );
  }
  return value;
}

function requireObject(raw: JsonObject, field: string, nullable: boolean): JsonObject | null {
  const value = raw[field];
  if (nullable && value === null) return null;
  if (!isObject(value)) {
    throw headerError(`header field ${field} must be a JSON object${nullable ? ' or null' : ''}, got ${show(value)}`);
  }
  return value;
}

function validateHeader(raw: unknown): PolicyFileHeader {
  if (!isObject(raw)) {
    throw headerError(`the header must be a JSON object, but it is ${show(raw)}; the file is damaged`);
  }

  // format first: a JSON object of some other kind is not a policy file at all
  if (raw.format !== FORMAT) {
    throw new PolicyFileError(
      'not-a-policy',
      raw.format === undefined
        ? `not a DreamGym policy file: its header has no format field (expected "${FORMAT}")`
        : `not a DreamGym policy file: its header says format ${show(raw.format)}, expected "${FORMAT}"`,
    );
  }

  // version right after format, before any other field (a newer version may change them all)
  const version = raw.version;
  if (typeof version !== 'number' || !Number.isSafeInteger(version)) {
    throw headerError(
      `header field version must be an integer (this build reads version ${DGP_VERSION}), got ${show(version)}`,
    );
  }
  if (version > DGP_VERSION) {
    throw new PolicyFileError(
      'version',
      `this policy file has format version ${version}, but this build of DreamGym reads version ${DGP_VERSION}: ` +
        `it was made by a newer DreamGym; update DreamGym to load it`,
    );
  }
  if (version !== DGP_VERSION) {
    throw new PolicyFileError(
      'version',
      `this policy file has format version ${version}, which no DreamGym release writes; ` +
        `this build reads version ${DGP_VERSION}, so the file is damaged or was not written by DreamGym`,
    );
  }

  const env = requireString(raw, 'env', true);
  const algorithm = requireString(raw, 'algorithm', true);
  const backend = requireString(raw, 'backend', false);
  const architecture = requireObject(raw, 'architecture', false)!;
  const featurizer = requireObject(raw, 'featurizer', false)!;
  const training = requireObject(raw, 'training', false)!;
  const evaluation = requireObject(raw, 'evaluation', true);
  const createdAt = requireString(raw, 'createdAt', true);
  if (Number.isNaN(Date.parse(createdAt))) {
    throw headerError(`header field createdAt must be an ISO date, got ${show(createdAt)}`);
  }

  const rawWeights = raw.weights;
  if (!Array.isArray(rawWeights)) {
    throw headerError(`header field weights must be an array of {name, shape, dtype}, got ${show(rawWeights)}`);
  }
  const weights: WeightManifestEntry[] = [];
  const seen = new Map<string, number>();
  let totalElements = 0;
  rawWeights.forEach((entry: unknown, i) => {
    const at = `weights[${i}]`;
    if (!isObject(entry)) {
      throw headerError(`header field ${at} must be an object with name, shape and dtype, got ${show(entry)}`);
    }
    const { name, shape, dtype } = entry;
    if (typeof name !== 'string' || name.length === 0) {
      throw headerError(`header field ${at}.name must be a non-empty string, got ${show(name)}`);
    }
    if (!isShape(shape)) {
      throw headerError(`header field ${at}.shape must be an array of positive integers, got ${show(shape)}`);
    }
    if (dtype !== 'float32') {
      throw headerError(
        `header field ${at}.dtype is ${show(dtype)} (weight "${name}"); only "float32" is supported`,
      );
    }
    const previous = seen.get(name);
    if (previous !== undefined) {
      throw headerError(`the header lists weight "${name}" twice (weights[${previous}] and ${at})`);
    }
    seen.set(name, i);
    const count = elementCount(shape);
    if (count < 0 || !Number.isSafeInteger(totalElements + count)) {
      throw headerError(`header field ${at}.shape ${showShape(shape)} has far too many elements for a policy`);
    }
    totalElements += count;
    weights.push({ name, shape: [...shape], dtype: 'float32' });
  });

  const weightsByteLength = raw.weightsByteLength;
  if (typeof weightsByteLength !== 'number' || !Number.isSafeInteger(weightsByteLength) || weightsByteLength < 0) {
    throw headerError(`header field weightsByteLength must be a non-negative integer, got ${show(weightsByteLength)}`);
  }
  if (weightsByteLength !== 4 * totalElements) {
    throw headerError(
      `header field weightsByteLength is ${weightsByteLength}, but the weight shapes need ` +
        `${4 * totalElements} bytes (4 x ${totalElements} float32 values); the file is damaged`,
    );
  }

  const weightsSha256 = raw.weightsSha256;
  if (typeof weightsSha256 !== 'string' || !/^[0-9a-fA-F]{64}$/.test(weightsSha256)) {
    throw headerError(
      `header field weightsSha256 must be 64 hexadecimal characters (a SHA-256 digest), got ${show(weightsSha256)}`,
    );
  }

  return {
    format: FORMAT,
    version,
    env,
    algorithm,
    backend,
    architecture,
    featurizer,
    training,
    evaluation,
    createdAt,
    weights,
    weightsByteLength,
    weightsSha256: weightsSha256.toLowerCase(),
  };
}

// ---------------------------------------------------------------------------------------------
// Encoding

/** Writes a policy file. Throws PolicyFileError for inconsistent shapes, NaN/Infinity or bad meta. */
export function encodePolicyFile(meta: PolicyFileMeta, weights: WeightEntry[]): Uint8Array {
  const manifest: WeightManifestEntry[] = [];
  const names = new Set<string>();
  let weightsByteLength = 0;
  for (const [i, w] of weights.entries()) {
    if (typeof w.name !== 'string' || w.name.length === 0) {
      throw headerError(`cannot encode: weights[${i}].name must be a non-empty string, got ${show(w.name)}`);
    }
    if (names.has(w.name)) throw headerError(`cannot encode: two weights are named "${w.name}"`);
    names.add(w.name);
    if (!isShape(w.shape)) {
      throw new PolicyFileError(
        'shape',
        `cannot encode: weight "${w.name}" has shape ${show(w.shape)}; a shape must be an array of positive integers`,
      );
    }
    if (!(w.data instanceof Float32Array)) {
      throw new PolicyFileError('shape', `cannot encode: weight "${w.name}" data must be a Float32Array`);
    }
    const count = elementCount(w.shape);
    if (count !== w.data.length) {
      throw new PolicyFileError(
        'shape',
        `cannot encode: weight "${w.name}" has shape ${showShape(w.shape)} (${count} values) ` +
          `but its data holds ${w.data.length} values`,
      );
    }
    const bad = firstNonFinite(w.data);
    if (bad >= 0) {
      throw new PolicyFileError(
        'non-finite',
        `cannot encode: weight "${w.name}" has a non-finite value (${nonFiniteName(w.data[bad]!)}) at index ${bad}; ` +
          `the policy is broken (did training diverge?)`,
      );
    }
    manifest.push({ name: w.name, shape: [...w.shape], dtype: 'float32' });
    weightsByteLength += w.data.byteLength;
  }

  // the weight section, float32 little-endian in manifest order
  const weightBytes = new Uint8Array(weightsByteLength);
  let offset = 0;
  for (const { data } of weights) {
    if (LITTLE_ENDIAN_HOST) {
      weightBytes.set(new Uint8Array(data.buffer, data.byteOffset, data.byteLength), offset);
    } else {
      const view = new DataView(weightBytes.buffer, offset, data.byteLength);
      for (let j = 0; j < data.length; j++) view.setFloat32(j * 4, data[j]!, true);
    }
    offset += data.byteLength;
  }

  const header: PolicyFileHeader = {
    format: FORMAT,
    version: DGP_VERSION,
    env: meta.env,
    algorithm: meta.algorithm,
    backend: meta.backend,
    architecture: meta.architecture,
    featurizer: meta.featurizer,
    training: meta.training,
    evaluation: meta.evaluation,
    createdAt: meta.createdAt,
    weights: manifest,
    weightsByteLength,
    weightsSha256: bytesToHex(sha256(weightBytes)),
  };
  let json: string;
  try {
    json = JSON.stringify(header);
  } catch (cause) {
    throw new PolicyFileError('header', `cannot encode: the metadata cannot be written as JSON (${String(cause)})`, {
      cause,
    });
  }
  // what a reader will see must pass the reader's checks
  try {
    validateHeader(JSON.parse(json));
  } catch (e) {
    if (e instanceof PolicyFileError) {
      throw new PolicyFileError(e.problem, `cannot encode: ${e.message}`, { cause: e });
    }
    throw e;
  }
  const headerBytes = new TextEncoder().encode(json);
  if (headerBytes.length > DGP_MAX_HEADER_BYTES) {
    throw headerError(
      `cannot encode: the header is ${headerBytes.length} bytes, more than the ${DGP_MAX_HEADER_BYTES}-byte limit ` +
        `(is the metadata unusually large?)`,
    );
  }

  const weightsStart = align4(PREFIX_BYTES + headerBytes.length);
  const out = new Uint8Array(weightsStart + weightsByteLength); // padding is already zero
  for (let i = 0; i < 4; i++) out[i] = DGP_MAGIC.charCodeAt(i);
  new DataView(out.buffer).setUint32(4, headerBytes.length, true);
  out.set(headerBytes, PREFIX_BYTES);
  out.set(weightBytes, weightsStart);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Decoding

interface HeaderPart {
  header: PolicyFileHeader;
  /** Offset just past the header JSON (before padding). */
  headerEnd: number;
}

function readHeaderPart(bytes: Uint8Array, maxBytes: number): HeaderPart {
  // 1. size, before looking at anything
  if (bytes.length > maxBytes) {
    throw new PolicyFileError(
      'oversized',
      `the file is ${sizeText(bytes.length)} (${bytes.length} bytes), more than the ${sizeText(maxBytes)} ` +
        `(${maxBytes} bytes) a policy file may be; it is probably not a policy file ` +
        `(raise maxBytes only if you trust it)`,
    );
  }

  // 2. magic
  if (bytes.length < DGP_MAGIC.length) {
    throw new PolicyFileError(
      'not-a-policy',
      bytes.length === 0
        ? 'not a DreamGym policy file: the file is empty'
        : `not a DreamGym policy file: it is only ${bytes.length} bytes long, too short to start with ${DGP_MAGIC} ` +
            `(is it a .dgp file?)`,
    );
  }
  for (let i = 0; i < DGP_MAGIC.length; i++) {
    if (bytes[i] !== DGP_MAGIC.charCodeAt(i)) {
      const looksLikeJson = bytes[0] === 0x7b || bytes[0] === 0x5b; // '{' or '['
      throw new PolicyFileError(
        'not-a-policy',
        `not a DreamGym policy file: it does not start with ${DGP_MAGIC} ` +
          (looksLikeJson ? '(it looks like a JSON text file; is it a .dgp file?)' : '(is it a .dgp file?)'),
      );
    }
  }

  // 3. header length and header
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < PREFIX_BYTES) {
    throw new PolicyFileError(
      'truncated',
      `the policy file is truncated: it ends inside the header length field ` +
        `(expected at least ${PREFIX_BYTES} bytes, found ${bytes.length})`,
    );
  }
  const headerLength = view.getUint32(4, true);
  if (headerLength > DGP_MAX_HEADER_BYTES) {
    throw headerError(
      `the header length field says ${headerLength} bytes, more than the ${DGP_MAX_HEADER_BYTES}-byte limit; ` +
        `the file is damaged`,
    );
  }
  if (headerLength === 0) throw headerError('the header is empty (its length field is 0); the file is damaged');
  const headerEnd = PREFIX_BYTES + headerLength;
  if (bytes.length < headerEnd) {
    throw new PolicyFileError(
      'truncated',
      `the policy file is truncated: it ends inside the header (expected at least ${headerEnd} bytes, ` +
        `found ${bytes.length})`,
    );
  }

  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(PREFIX_BYTES, headerEnd));
  } catch (cause) {
    throw new PolicyFileError('header', 'the header is not valid UTF-8 text; the file is damaged', { cause });
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (cause) {
    const detail = errorMessage(cause);
    throw new PolicyFileError('header', `the header is not valid JSON (${detail}); the file is damaged`, { cause });
  }
  return { header: validateHeader(raw), headerEnd };
}

/** Only the header, validated (for showing a file's header before loading); weights are not read. */
export function readPolicyHeader(bytes: Uint8Array, options?: Pick<DecodeOptions, 'maxBytes'>): PolicyFileHeader {
  return readHeaderPart(bytes, options?.maxBytes ?? DGP_MAX_BYTES).header;
}

/** Reads and fully checks a policy file. Throws PolicyFileError saying exactly what is wrong. */
export function decodePolicyFile(
  bytes: Uint8Array,
  options?: DecodeOptions,
): { header: PolicyFileHeader; weights: WeightEntry[] } {
  const { header, headerEnd } = readHeaderPart(bytes, options?.maxBytes ?? DGP_MAX_BYTES);

  // padding and weight section length
  const weightsStart = align4(headerEnd);
  const weightsEnd = weightsStart + header.weightsByteLength;
  if (bytes.length < weightsStart) {
    throw new PolicyFileError(
      'truncated',
      `the policy file is truncated: it ends in the padding after the header ` +
        `(expected ${weightsEnd} bytes in all, found ${bytes.length})`,
    );
  }
  for (let i = headerEnd; i < weightsStart; i++) {
    if (bytes[i] !== 0) throw headerError('the padding after the header must be zero bytes; the file is damaged');
  }
  if (bytes.length < weightsEnd) {
    throw new PolicyFileError(
      'truncated',
      `the policy file is truncated: expected ${weightsEnd} bytes (${header.weightsByteLength} bytes of weights), ` +
        `found ${bytes.length} (only ${bytes.length - weightsStart} bytes of weights)`,
    );
  }
  if (bytes.length > weightsEnd) {
    throw headerError(
      `${bytes.length - weightsEnd} unexpected bytes after the weights (the header declares ` +
        `${header.weightsByteLength} bytes of weights); the file is damaged or was modified`,
    );
  }

  // shapes the caller's network needs
  if (options?.expectedWeights) {
    const expected = options.expectedWeights(header);
    const found = header.weights;
    const common = Math.min(expected.length, found.length);
    for (let i = 0; i < common; i++) {
      const want = expected[i]!;
      const have = found[i]!;
      if (want.name !== have.name) {
        throw new PolicyFileError(
          'shape',
          `weight #${i} in the file is "${have.name}" ${showShape(have.shape)}, but the network expects ` +
            `"${want.name}" ${showShape(want.shape)} there; the file does not fit this network`,
        );
      }
      if (want.shape.length !== have.shape.length || want.shape.some((d, j) => d !== have.shape[j])) {
        throw new PolicyFileError(
          'shape',
          `weight "${have.name}" has shape ${showShape(have.shape)} in the file, but the network expects ` +
            `${showShape(want.shape)}; the file does not fit this network`,
        );
      }
    }
    if (expected.length !== found.length) {
      const detail =
        expected.length > found.length
          ? `first missing: "${expected[common]!.name}"`
          : `first extra: "${found[common]!.name}"`;
      throw new PolicyFileError(
        'shape',
        `the file has ${found.length} weights, but the network expects ${expected.length} (${detail}); ` +
          `the file does not fit this network`,
      );
    }
  }

  // checksum over the weight bytes exactly as stored
  const weightBytes = bytes.subarray(weightsStart, weightsEnd);
  const actual = bytesToHex(sha256(weightBytes));
  if (actual !== header.weightsSha256) {
    throw new PolicyFileError(
      'checksum',
      `checksum mismatch: the weights hash to SHA-256 ${actual.slice(0, 16)}..., but the header says ` +
        `${header.weightsSha256.slice(0, 16)}...; the file was damaged or modified after it was written`,
    );
  }

  // copy each weight into its own fresh, aligned Float32Array (input may be unaligned)
  const weights: WeightEntry[] = [];
  let offset = 0;
  for (const entry of header.weights) {
    const count = elementCount(entry.shape);
    const chunk = weightBytes.slice(offset, offset + count * 4); // fresh buffer, byteOffset 0
    let data: Float32Array;
    if (LITTLE_ENDIAN_HOST) {
      data = new Float32Array(chunk.buffer, 0, count);
    } else {
      data = new Float32Array(count);
      const view = new DataView(chunk.buffer);
      for (let j = 0; j < count; j++) data[j] = view.getFloat32(j * 4, true);
    }
    const bad = firstNonFinite(data);
    if (bad >= 0) {
      throw new PolicyFileError(
        'non-finite',
        `weight "${entry.name}" has a non-finite value (${nonFiniteName(data[bad]!)}) at index ${bad}; ` +
          `the policy is broken and cannot be used`,
      );
    }
    weights.push({ name: entry.name, shape: [...entry.shape], data });
    offset += count * 4;
  }
  return { header, weights };
}
