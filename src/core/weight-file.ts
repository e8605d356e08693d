/**
 * DreamGym weight files: one shareable file holding a trained network. Two kinds share this
 * container — policy files (.dgp, magic "DGPF", policy/dgp.ts) and experience model files (.dgx,
 * magic "DGXF", experience/neural/model-file.ts) — and differ only in magic, header format string
 * and the words their messages use. It sits in core because both kinds, on different floors, use it.
 *
 * Layout (all integers little-endian):
 *   bytes 0..3   magic ("DGPF" for a policy file)
 *   bytes 4..7   uint32 header byte length N
 *   bytes 8..    N bytes of UTF-8 JSON header (ContainerHeader)
 *   then         zero padding up to a 4-byte boundary (counted from the start of the file)
 *   then         the weights: float32 little-endian, concatenated in manifest order
 * Nothing may follow the weights.
 *
 * Loading never evaluates code (JSON.parse only), checks size, magic, version, every header field,
 * shapes, length and checksum, rejects NaN/Infinity, and copies weights into fresh Float32Arrays.
 * A file of the other kind is recognised (by magic or format) and refused by name.
 * Pure TypeScript: runs in Node, a page and a worker.
 */

import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import * as v from 'valibot';
import { errorMessage } from './errors.ts';
import { boundedText, excerpt } from './text.ts';

/** Default cap on the size of a file a codec accepts. */
export const DGP_MAX_BYTES = 64 * 1024 * 1024;
export const DGP_MAX_HEADER_BYTES = 1024 * 1024;

const PREFIX_BYTES = 8; // magic + header length

// ---------------------------------------------------------------------------------------------
// Container kinds

/** What distinguishes one kind of weight file from another; everything else is shared. */
export interface ContainerKind<F extends string = string> {
  /** Four ASCII characters at the start of the file. */
  readonly magic: string;
  /** The header's `format` field. */
  readonly format: F;
  /** The header version this build writes and reads. */
  readonly version: number;
  /** What the file is called in messages, e.g. 'policy file'. */
  readonly noun: string;
  /** What the file holds, in messages such as "the policy is broken". */
  readonly subject: string;
  /** The usual file name extension, with the dot. */
  readonly extension: string;
  /** The largest header this kind writes and reads (default DGP_MAX_HEADER_BYTES). */
  readonly maxHeaderBytes?: number;
}

export const POLICY_CONTAINER: ContainerKind<'dreamgym-policy'> = Object.freeze({
  magic: 'DGPF',
  format: 'dreamgym-policy',
  version: 1,
  noun: 'policy file',
  subject: 'policy',
  extension: '.dgp',
});

export const EXPERIENCE_CONTAINER: ContainerKind<'dreamgym-experience'> = Object.freeze({
  magic: 'DGXF',
  format: 'dreamgym-experience',
  version: 1,
  noun: 'experience model file',
  subject: 'experience model',
  extension: '.dgx',
});

/**
 * A training run's checkpoint (train/checkpoint.ts): the policy's and the optimiser's tensors, and a
 * header with everything else the run needs to go on exactly (its random streams, counters, curve
 * and curriculum), which grows with a long run's history, hence the larger header limit.
 */
export const CHECKPOINT_CONTAINER: ContainerKind<'dreamgym-checkpoint'> = Object.freeze({
  magic: 'DGCF',
  format: 'dreamgym-checkpoint',
  version: 1,
  noun: 'training checkpoint',
  subject: 'checkpoint',
  extension: '.dgc',
  maxHeaderBytes: 32 * 1024 * 1024,
});

/** Every kind this build knows, so a file of one kind given as another is refused by name. */
const KNOWN_CONTAINERS: readonly ContainerKind[] = [POLICY_CONTAINER, EXPERIENCE_CONTAINER, CHECKPOINT_CONTAINER];

// ---------------------------------------------------------------------------------------------
// Types

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
export interface WeightFileMeta {
  env: string;
  algorithm: string;
  backend: string;
  architecture: Record<string, unknown>;
  featurizer: Record<string, unknown>;
  training: Record<string, unknown>;
  evaluation: Record<string, unknown> | null;
  createdAt: string;
}

/** The header of any container kind; `format` names the kind. */
export interface ContainerHeader<F extends string = string> extends WeightFileMeta {
  format: F;
  version: number;
  weights: WeightManifestEntry[];
  weightsByteLength: number;
  /** Hex of SHA-256 over the weight bytes exactly as stored. */
  weightsSha256: string;
}

export interface DecodeOptions<H extends ContainerHeader = ContainerHeader> {
  /** Largest file accepted, in bytes (default DGP_MAX_BYTES). */
  maxBytes?: number;
  /**
   * The shapes the caller's network needs for this header (derived from header.architecture).
   * Throw the container's error ('shape' or 'header') yourself if it can't; decode compares names,
   * order and shapes to the manifest.
   */
  expectedWeights?: (header: H) => { name: string; shape: number[] }[];
}

/**
 * The kinds of trouble any container reports. 'wrong-kind': not a file of the expected kind at all
 * (another file type, an empty file, or the other DreamGym kind); policy files call it 'not-a-policy'.
 */
export type ContainerProblem =
  | 'oversized'
  | 'wrong-kind'
  | 'truncated'
  | 'header'
  | 'version'
  | 'shape'
  | 'checksum'
  | 'non-finite';

/** Builds the error a container kind throws; each kind has its own error class. */
export type ContainerErrorFactory = (problem: ContainerProblem, message: string, options?: { cause?: unknown }) => Error;

/**
 * A header field that must be an integer in [1, max], as architecture and featurizer sizes are;
 * `headerError` builds the container kind's own 'header' error from the message.
 */
export function headerInteger(value: unknown, field: string, max: number, headerError: (message: string) => Error): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > max) {
    throw headerError(`header field ${field} must be an integer between 1 and ${max}, got ${showValue(value)}`);
  }
  return value;
}

const LITTLE_ENDIAN_HOST = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

// ---------------------------------------------------------------------------------------------
// Small helpers

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A short, safe rendering of an untrusted value for error messages: a string as its excerpt (a
 * header field may hold megabytes, NUL bytes or terminal escapes), anything else as bounded JSON.
 */
export function showValue(value: unknown): string {
  if (typeof value === 'string') return excerpt(value, 60);
  let text: string;
  try {
    text = value === undefined ? 'undefined' : (JSON.stringify(value) ?? String(value));
  } catch {
    text = String(value);
  }
  return boundedText(text, 60);
}

/** A shape as a message shows it; a file's shape may list a million dimensions of 1, so the first few. */
function showShape(shape: readonly number[]): string {
  return shape.length <= SHAPE_DIMENSIONS_SHOWN
    ? `[${shape.join(', ')}]`
    : `[${shape.slice(0, SHAPE_DIMENSIONS_SHOWN).join(', ')}, …] (${shape.length.toLocaleString('en-US')} dimensions)`;
}

const SHAPE_DIMENSIONS_SHOWN = 8;

function sizeText(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${bytes} B`;
}

/** "a policy file", "an experience model file". */
function withArticle(noun: string): string {
  return `${/^[aeiou]/i.test(noun) ? 'an' : 'a'} ${noun}`;
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

function startsWithMagic(bytes: Uint8Array, magic: string): boolean {
  if (bytes.length < magic.length) return false;
  for (let i = 0; i < magic.length; i++) {
    if (bytes[i] !== magic.charCodeAt(i)) return false;
  }
  return true;
}

/** "this is a DreamGym policy file (.dgp), not an experience model file (.dgx)". */
function otherKindText(found: ContainerKind, wanted: ContainerKind): string {
  return `this is a DreamGym ${found.noun} (${found.extension}), not ${withArticle(wanted.noun)} (${wanted.extension})`;
}

// ---------------------------------------------------------------------------------------------
// The codec: one container kind and the error class it throws

/**
 * Reads and writes one kind of container. `makeError` turns a problem and a message into the
 * kind's own error class; messages already name the kind (its noun and subject).
 */
// ---------------------------------------------------------------------------------------------
// The header's fields after format and version (which are checked first, by hand: a file of
// another kind or version is refused before its other fields are read)

const text = v.string();
const nonEmptyText = v.pipe(v.string(), v.minLength(1));
const jsonObject = v.custom<JsonObject>(isObject);
const HEADER_FIELDS = v.looseObject({
  env: nonEmptyText,
  algorithm: nonEmptyText,
  backend: text,
  architecture: jsonObject,
  featurizer: jsonObject,
  training: jsonObject,
  evaluation: v.nullable(jsonObject),
  createdAt: v.pipe(nonEmptyText, v.check((t) => !Number.isNaN(Date.parse(t)))),
  weights: v.array(
    v.looseObject({
      name: nonEmptyText,
      shape: v.custom<number[]>(isShape),
      dtype: v.literal('float32'),
    }),
  ),
  weightsByteLength: v.pipe(v.number(), v.safeInteger(), v.minValue(0)),
  weightsSha256: v.pipe(v.string(), v.regex(/^[0-9a-fA-F]{64}$/), v.transform((hex) => hex.toLowerCase())),
});

/** What each field must be, by its path (`*` for an index in weights). */
const FIELD_EXPECTS: Readonly<Record<string, string>> = {
  env: 'a non-empty string',
  algorithm: 'a non-empty string',
  backend: 'a string',
  architecture: 'a JSON object',
  featurizer: 'a JSON object',
  training: 'a JSON object',
  evaluation: 'a JSON object or null',
  createdAt: 'an ISO date',
  weights: 'an array of {name, shape, dtype}',
  'weights.*': 'an object with name, shape and dtype',
  'weights.*.name': 'a non-empty string',
  'weights.*.shape': 'an array of positive integers',
  weightsByteLength: 'a non-negative integer',
  weightsSha256: '64 hexadecimal characters (a SHA-256 digest)',
};

/** The message for the first field the schema refused, naming it as a reader finds it. */
function headerFieldMessage(issue: v.BaseIssue<unknown>, raw: unknown): string {
  const keys = (issue.path ?? []).map((p) => p.key as string | number);
  const at = keys.map((k, i) => (typeof k === 'number' ? `[${k}]` : i === 0 ? k : `.${k}`)).join('');
  const pattern = keys.map((k) => (typeof k === 'number' ? '*' : k)).join('.');
  // A field whose own type is right but which failed a later check (an empty string) shows its value.
  const value = keys.reduce<unknown>((node, key) => (isObject(node) || Array.isArray(node) ? (node as Record<string | number, unknown>)[key] : undefined), raw);
  if (pattern === 'weights.*.dtype') {
    const entry = keys.slice(0, -1).reduce<unknown>((node, key) => (node as Record<string | number, unknown>)[key], raw) as JsonObject;
    return `header field ${at} is ${showValue(value)} (weight ${showValue(entry.name)}); only "float32" is supported`;
  }
  if (pattern === 'createdAt' && typeof value === 'string' && value !== '') return `header field createdAt must be an ISO date, got ${showValue(value)}`;
  if (pattern === 'createdAt') return `header field createdAt must be a non-empty string, got ${showValue(value)}`;
  return `header field ${at} must be ${FIELD_EXPECTS[pattern] ?? 'well formed'}, got ${showValue(value)}`;
}

export class ContainerCodec<F extends string> {
  readonly kind: ContainerKind<F>;
  private readonly makeError: ContainerErrorFactory;

  constructor(kind: ContainerKind<F>, makeError: ContainerErrorFactory) {
    this.kind = kind;
    this.makeError = makeError;
  }

  /** Writes a file. Throws the kind's error for inconsistent shapes, NaN/Infinity or bad meta. */
  encode(meta: WeightFileMeta, weights: WeightEntry[]): Uint8Array {
    const fail = this.makeError;
    const { kind } = this;
    const manifest: WeightManifestEntry[] = [];
    const names = new Set<string>();
    let weightsByteLength = 0;
    for (const [i, w] of weights.entries()) {
      if (typeof w.name !== 'string' || w.name.length === 0) {
        throw fail('header', `cannot encode: weights[${i}].name must be a non-empty string, got ${showValue(w.name)}`);
      }
      if (names.has(w.name)) throw fail('header', `cannot encode: two weights are named "${w.name}"`);
      names.add(w.name);
      if (!isShape(w.shape)) {
        throw fail(
          'shape',
          `cannot encode: weight "${w.name}" has shape ${showValue(w.shape)}; a shape must be an array of positive integers`,
        );
      }
      if (!(w.data instanceof Float32Array)) {
        throw fail('shape', `cannot encode: weight "${w.name}" data must be a Float32Array`);
      }
      const count = elementCount(w.shape);
      if (count !== w.data.length) {
        throw fail(
          'shape',
          `cannot encode: weight "${w.name}" has shape ${showShape(w.shape)} (${count} values) ` +
            `but its data holds ${w.data.length} values`,
        );
      }
      const bad = firstNonFinite(w.data);
      if (bad >= 0) {
        throw fail(
          'non-finite',
          `cannot encode: weight "${w.name}" has a non-finite value (${nonFiniteName(w.data[bad]!)}) at index ${bad}; ` +
            `the ${kind.subject} is broken (did training diverge?); no ${kind.noun} was written`,
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

    // field order is part of the byte format: keep it
    const header: ContainerHeader<F> = {
      format: kind.format,
      version: kind.version,
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
      throw fail('header', `cannot encode: the metadata cannot be written as JSON (${String(cause)})`, { cause });
    }
    // what a reader will see must pass the reader's checks
    this.validateHeader(JSON.parse(json), (problem, message, options) =>
      fail(problem, `cannot encode: ${message}`, options),
    );
    const headerBytes = new TextEncoder().encode(json);
    const maxHeader = kind.maxHeaderBytes ?? DGP_MAX_HEADER_BYTES;
    if (headerBytes.length > maxHeader) {
      throw fail(
        'header',
        `cannot encode: the header is ${headerBytes.length} bytes, more than the ${maxHeader}-byte limit ` +
          `(is the metadata unusually large?)`,
      );
    }

    const weightsStart = align4(PREFIX_BYTES + headerBytes.length);
    const out = new Uint8Array(weightsStart + weightsByteLength); // padding is already zero
    for (let i = 0; i < 4; i++) out[i] = kind.magic.charCodeAt(i);
    new DataView(out.buffer).setUint32(4, headerBytes.length, true);
    out.set(headerBytes, PREFIX_BYTES);
    out.set(weightBytes, weightsStart);
    return out;
  }

  /** Only the header, validated (for showing a file's header before loading); weights are not read. */
  readHeader(bytes: Uint8Array, options?: Pick<DecodeOptions, 'maxBytes'>): ContainerHeader<F> {
    return this.readHeaderPart(bytes, options?.maxBytes ?? DGP_MAX_BYTES).header;
  }

  /** Reads and fully checks a file. Throws the kind's error saying exactly what is wrong. */
  decode(
    bytes: Uint8Array,
    options?: DecodeOptions<ContainerHeader<F>>,
  ): { header: ContainerHeader<F>; weights: WeightEntry[] } {
    const fail = this.makeError;
    const { noun, subject } = this.kind;
    const { header, headerEnd } = this.readHeaderPart(bytes, options?.maxBytes ?? DGP_MAX_BYTES);

    // padding and weight section length
    const weightsStart = align4(headerEnd);
    const weightsEnd = weightsStart + header.weightsByteLength;
    if (bytes.length < weightsStart) {
      throw fail(
        'truncated',
        `the ${noun} is truncated: it ends in the padding after the header ` +
          `(expected ${weightsEnd} bytes in all, found ${bytes.length})`,
      );
    }
    for (let i = headerEnd; i < weightsStart; i++) {
      if (bytes[i] !== 0) throw fail('header', `the padding after the header must be zero bytes; the ${noun} is damaged`);
    }
    if (bytes.length < weightsEnd) {
      throw fail(
        'truncated',
        `the ${noun} is truncated: expected ${weightsEnd} bytes (${header.weightsByteLength} bytes of weights), ` +
          `found ${bytes.length} (only ${bytes.length - weightsStart} bytes of weights)`,
      );
    }
    if (bytes.length > weightsEnd) {
      throw fail(
        'header',
        `${bytes.length - weightsEnd} unexpected bytes after the weights (the header declares ` +
          `${header.weightsByteLength} bytes of weights); the ${noun} is damaged or was modified`,
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
          throw fail(
            'shape',
            `weight #${i} in the file is ${excerpt(have.name)} ${showShape(have.shape)}, but the network expects ` +
              `${excerpt(want.name)} ${showShape(want.shape)} there; the ${noun} does not fit this network`,
          );
        }
        if (want.shape.length !== have.shape.length || want.shape.some((d, j) => d !== have.shape[j])) {
          throw fail(
            'shape',
            `weight ${excerpt(have.name)} has shape ${showShape(have.shape)} in the file, but the network expects ` +
              `${showShape(want.shape)}; the ${noun} does not fit this network`,
          );
        }
      }
      if (expected.length !== found.length) {
        const detail =
          expected.length > found.length
            ? `first missing: ${excerpt(expected[common]!.name)}`
            : `first extra: ${excerpt(found[common]!.name)}`;
        throw fail(
          'shape',
          `the file has ${found.length} weights, but the network expects ${expected.length} (${detail}); ` +
            `the ${noun} does not fit this network`,
        );
      }
    }

    // checksum over the weight bytes exactly as stored
    const weightBytes = bytes.subarray(weightsStart, weightsEnd);
    const actual = bytesToHex(sha256(weightBytes));
    if (actual !== header.weightsSha256) {
      throw fail(
        'checksum',
        `checksum mismatch: the weights hash to SHA-256 ${actual.slice(0, 16)}..., but the header says ` +
          `${header.weightsSha256.slice(0, 16)}...; the ${noun} was damaged or modified after it was written`,
      );
    }

    // copy each weight into its own fresh, aligned Float32Array (input may be unaligned)
    const weights: WeightEntry[] = [];
    let offset = 0;
    for (const entry of header.weights) {
      const count = elementCount(entry.shape);
      // subarray + set, never `.slice()`: a Node Buffer's slice is a view into the whole file, and
      // reading its `.buffer` from 0 would load the file's first bytes as weights.
      const chunk = weightBytes.subarray(offset, offset + count * 4);
      const data = new Float32Array(count);
      if (LITTLE_ENDIAN_HOST) {
        new Uint8Array(data.buffer).set(chunk);
      } else {
        const view = new DataView(chunk.buffer, chunk.byteOffset, chunk.byteLength);
        for (let j = 0; j < count; j++) data[j] = view.getFloat32(j * 4, true);
      }
      const bad = firstNonFinite(data);
      if (bad >= 0) {
        throw fail(
          'non-finite',
          `weight ${excerpt(entry.name)} has a non-finite value (${nonFiniteName(data[bad]!)}) at index ${bad}; ` +
            `the ${subject} in this ${noun} is broken and cannot be used`,
        );
      }
      weights.push({ name: entry.name, shape: [...entry.shape], data });
      offset += count * 4;
    }
    return { header, weights };
  }

  // -------------------------------------------------------------------------------------------
  // Header validation (shared by encode, decode and readHeader)

  private validateHeader(raw: unknown, fail: ContainerErrorFactory): ContainerHeader<F> {
    const { kind } = this;
    const headerError = (message: string) => fail('header', message);
    if (!isObject(raw)) {
      throw headerError(`the header must be a JSON object, but it is ${showValue(raw)}; the ${kind.noun} is damaged`);
    }

    // format first: a JSON object of some other kind is not this kind of file at all
    if (raw.format !== kind.format) {
      const other = KNOWN_CONTAINERS.find((k) => k !== kind && k.format === raw.format);
      throw fail(
        'wrong-kind',
        other
          ? `${otherKindText(other, kind)}: its header says format "${other.format}", expected "${kind.format}"`
          : raw.format === undefined
            ? `not a DreamGym ${kind.noun}: its header has no format field (expected "${kind.format}")`
            : `not a DreamGym ${kind.noun}: its header says format ${showValue(raw.format)}, expected "${kind.format}"`,
      );
    }

    // version right after format, before any other field (a newer version may change them all)
    const version = raw.version;
    if (typeof version !== 'number' || !Number.isSafeInteger(version)) {
      throw headerError(
        `header field version must be an integer (this build reads version ${kind.version}), got ${showValue(version)}`,
      );
    }
    if (version > kind.version) {
      throw fail(
        'version',
        `this ${kind.noun} has format version ${version}, but this build of DreamGym reads version ${kind.version}: ` +
          `it was made by a newer DreamGym; update DreamGym to load it`,
      );
    }
    if (version !== kind.version) {
      throw fail(
        'version',
        `this ${kind.noun} has format version ${version}, which no DreamGym release writes; ` +
          `this build reads version ${kind.version}, so the file is damaged or was not written by DreamGym`,
      );
    }

    // Every other field, in the order a reader meets them: one schema, one message per field.
    const parsed = v.safeParse(HEADER_FIELDS, raw, { abortEarly: true });
    if (!parsed.success) throw headerError(headerFieldMessage(parsed.issues[0], raw));
    const { env, algorithm, backend, architecture, featurizer, training, evaluation, createdAt, weightsByteLength, weightsSha256 } = parsed.output;
    const weights: WeightManifestEntry[] = [];
    const seen = new Map<string, number>();
    let totalElements = 0;
    parsed.output.weights.forEach(({ name, shape }, i) => {
      const at = `weights[${i}]`;
      const previous = seen.get(name);
      if (previous !== undefined) {
        throw headerError(`the header lists weight ${excerpt(name)} twice (weights[${previous}] and ${at})`);
      }
      seen.set(name, i);
      const count = elementCount(shape);
      if (count < 0 || !Number.isSafeInteger(totalElements + count)) {
        throw headerError(
          `header field ${at}.shape ${showShape(shape)} has far too many elements for ${withArticle(kind.subject)}`,
        );
      }
      totalElements += count;
      weights.push({ name, shape: [...shape], dtype: 'float32' });
    });
    if (weightsByteLength !== 4 * totalElements) {
      throw headerError(
        `header field weightsByteLength is ${weightsByteLength}, but the weight shapes need ` +
          `${4 * totalElements} bytes (4 x ${totalElements} float32 values); the ${kind.noun} is damaged`,
      );
    }

    return {
      format: kind.format,
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

  // -------------------------------------------------------------------------------------------
  // Decoding the prefix and header

  private readHeaderPart(bytes: Uint8Array, maxBytes: number): { header: ContainerHeader<F>; headerEnd: number } {
    const fail = this.makeError;
    const { kind } = this;
    const { magic, noun, extension } = kind;

    // 1. size, before looking at anything
    if (bytes.length > maxBytes) {
      throw fail(
        'oversized',
        `the file is ${sizeText(bytes.length)} (${bytes.length} bytes), more than the ${sizeText(maxBytes)} ` +
          `(${maxBytes} bytes) ${withArticle(noun)} may be; it is probably not ${withArticle(noun)} ` +
          `(raise maxBytes only if you trust it)`,
      );
    }

    // 2. magic
    if (bytes.length < magic.length) {
      throw fail(
        'wrong-kind',
        bytes.length === 0
          ? `not a DreamGym ${noun}: the file is empty`
          : `not a DreamGym ${noun}: it is only ${bytes.length} bytes long, too short to start with ${magic} ` +
              `(is it a ${extension} file?)`,
      );
    }
    if (!startsWithMagic(bytes, magic)) {
      const other = KNOWN_CONTAINERS.find((k) => k !== kind && startsWithMagic(bytes, k.magic));
      if (other) {
        throw fail('wrong-kind', `${otherKindText(other, kind)}: it starts with ${other.magic}, not ${magic}`);
      }
      const looksLikeJson = bytes[0] === 0x7b || bytes[0] === 0x5b; // '{' or '['
      throw fail(
        'wrong-kind',
        `not a DreamGym ${noun}: it does not start with ${magic} ` +
          (looksLikeJson ? `(it looks like a JSON text file; is it a ${extension} file?)` : `(is it a ${extension} file?)`),
      );
    }

    // 3. header length and header
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (bytes.length < PREFIX_BYTES) {
      throw fail(
        'truncated',
        `the ${noun} is truncated: it ends inside the header length field ` +
          `(expected at least ${PREFIX_BYTES} bytes, found ${bytes.length})`,
      );
    }
    const headerLength = view.getUint32(4, true);
    const maxHeader = this.kind.maxHeaderBytes ?? DGP_MAX_HEADER_BYTES;
    if (headerLength > maxHeader) {
      throw fail(
        'header',
        `the header length field says ${headerLength} bytes, more than the ${maxHeader}-byte limit; ` +
          `the ${noun} is damaged`,
      );
    }
    if (headerLength === 0) {
      throw fail('header', `the header is empty (its length field is 0); the ${noun} is damaged`);
    }
    const headerEnd = PREFIX_BYTES + headerLength;
    if (bytes.length < headerEnd) {
      throw fail(
        'truncated',
        `the ${noun} is truncated: it ends inside the header (expected at least ${headerEnd} bytes, ` +
          `found ${bytes.length})`,
      );
    }

    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(PREFIX_BYTES, headerEnd));
    } catch (cause) {
      throw fail('header', `the header is not valid UTF-8 text; the ${noun} is damaged`, { cause });
    }
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (cause) {
      const detail = errorMessage(cause);
      throw fail('header', `the header is not valid JSON (${boundedText(detail)}); the ${noun} is damaged`, { cause });
    }
    return { header: this.validateHeader(raw, fail), headerEnd };
  }
}
