import { describe, expect, it } from 'vitest';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { DreamGymError } from '../../../src/core/errors.ts';
import {
  DGX_MAGIC,
  DGX_VERSION,
  ModelFileError,
  decodeExperienceFile,
  encodeExperienceFile,
  readExperienceHeader,
  type ExperienceFileMeta,
  type ModelFileProblem,
  type WeightEntry,
} from '../../../src/experience/neural/model-file.ts';
import { EXPERIENCE_CONTAINER } from '../../../src/core/weight-file.ts';
import {
  POLICY_CONTAINER,
  PolicyFileError,
  decodePolicyFile,
  encodePolicyFile,
  readPolicyHeader,
} from '../../../src/policy/dgp.ts';

const META: ExperienceFileMeta = {
  env: 'shop',
  algorithm: 'supervised',
  backend: 'cpu',
  architecture: { kind: 'retrieval-mlp', hidden: 8 },
  featurizer: { stateBuckets: 64, actionBuckets: 32 },
  training: { epochs: 3, transitions: 500, seed: 7 },
  evaluation: { split: 'test', rewardAccuracy: 0.9 },
  createdAt: '2025-01-02T03:04:05.000Z',
};

const NOUN = /experience model file/;

function weights(): WeightEntry[] {
  const seq = (n: number, f: (i: number) => number) => Float32Array.from({ length: n }, (_, i) => f(i));
  return [
    { name: 'encoder/kernel', shape: [3, 4], data: seq(12, (i) => Math.cos(i + 1) * 1e-3) },
    { name: 'encoder/bias', shape: [5], data: seq(5, (i) => -i / 7) },
    { name: 'reward/kernel', shape: [2, 3], data: seq(6, (i) => (i - 2.5) * 1e20) },
  ];
}

/** Builds a file from a header object and raw weight bytes in the container layout. */
function buildFile(header: unknown, weightBytes: Uint8Array = new Uint8Array(0), magic = DGX_MAGIC): Uint8Array {
  const json = new TextEncoder().encode(typeof header === 'string' ? header : JSON.stringify(header));
  const start = (8 + json.length + 3) & ~3;
  const out = new Uint8Array(start + weightBytes.length);
  out.set(new TextEncoder().encode(magic), 0);
  new DataView(out.buffer).setUint32(4, json.length, true);
  out.set(json, 8);
  out.set(weightBytes, start);
  return out;
}

function splitFile(file: Uint8Array): { header: Record<string, unknown>; weightBytes: Uint8Array } {
  const length = new DataView(file.buffer, file.byteOffset).getUint32(4, true);
  const header = JSON.parse(new TextDecoder().decode(file.subarray(8, 8 + length))) as Record<string, unknown>;
  return { header, weightBytes: file.slice((8 + length + 3) & ~3) };
}

function caught<E extends Error>(fn: () => unknown, type: new (...args: never[]) => E): E {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(type);
    return e as E;
  }
  throw new Error(`expected a ${type.name}, but nothing was thrown`);
}

/** Asserts the problem, the code, that the message names the experience model file, and `text`. */
function expectProblem(fn: () => unknown, problem: ModelFileProblem, text: string | RegExp): ModelFileError {
  const e = caught(fn, ModelFileError);
  expect(e.problem).toBe(problem);
  expect(e.code).toBe(`model-file-${problem}`);
  expect(e).toBeInstanceOf(DreamGymError);
  expect(e).not.toBeInstanceOf(PolicyFileError);
  expect(e.message).toMatch(NOUN);
  expect(e.message).toMatch(text);
  return e;
}

const bitsOf = (a: Float32Array) => Array.from(new Uint32Array(a.buffer, a.byteOffset, a.length));
const good = () => encodeExperienceFile(META, weights());

describe('.dgx container kinds', () => {
  it('differ from .dgp only in magic, format and wording', () => {
    expect(EXPERIENCE_CONTAINER).toMatchObject({ magic: 'DGXF', format: 'dreamgym-experience', extension: '.dgx' });
    expect(POLICY_CONTAINER).toMatchObject({ magic: 'DGPF', format: 'dreamgym-policy', extension: '.dgp' });
    expect(DGX_MAGIC).toBe('DGXF');
    // same meta and weights: same layout and weight section, different magic and format
    const dgx = good();
    const dgp = encodePolicyFile(META, weights());
    const x = splitFile(dgx);
    const p = splitFile(dgp);
    expect(Buffer.from(x.weightBytes).equals(Buffer.from(p.weightBytes))).toBe(true);
    expect({ ...x.header, format: 'dreamgym-policy' }).toEqual(p.header);
  });
});

describe('.dgx round trip', () => {
  it('gives identical header fields and bit-identical weights, and re-encodes to identical bytes', () => {
    const input = weights();
    const file = encodeExperienceFile(META, input);
    expect(new TextDecoder().decode(file.subarray(0, 4))).toBe('DGXF');
    const { header, weights: out } = decodeExperienceFile(file);
    expect(header).toMatchObject(META);
    expect(header.format).toBe('dreamgym-experience');
    expect(header.version).toBe(DGX_VERSION);
    expect(header.weights).toEqual([
      { name: 'encoder/kernel', shape: [3, 4], dtype: 'float32' },
      { name: 'encoder/bias', shape: [5], dtype: 'float32' },
      { name: 'reward/kernel', shape: [2, 3], dtype: 'float32' },
    ]);
    expect(header.weightsByteLength).toBe(4 * (12 + 5 + 6));
    expect(out.map((w) => [w.name, w.shape])).toEqual(input.map((w) => [w.name, w.shape]));
    out.forEach((w, i) => expect(bitsOf(w.data)).toEqual(bitsOf(input[i]!.data)));
    expect(Buffer.from(encodeExperienceFile(header, out)).equals(Buffer.from(file))).toBe(true);
  });

  it('passes the header to expectedWeights and accepts matching shapes', () => {
    let seen: unknown;
    const { weights: out } = decodeExperienceFile(good(), {
      expectedWeights: (h) => {
        seen = [h.format, h.architecture, h.featurizer];
        return weights().map(({ name, shape }) => ({ name, shape }));
      },
    });
    expect(seen).toEqual(['dreamgym-experience', META.architecture, META.featurizer]);
    expect(out).toHaveLength(3);
  });

  it('readExperienceHeader reads the header without the weights', () => {
    const { header, weightBytes } = splitFile(good());
    const broken = buildFile(header, weightBytes.subarray(0, 10));
    expect(() => decodeExperienceFile(broken)).toThrow(ModelFileError);
    expect(readExperienceHeader(broken)).toMatchObject(META);
    expectProblem(() => readExperienceHeader(new Uint8Array(100), { maxBytes: 50 }), 'oversized', /100 bytes/);
  });
});

describe('.dgx and .dgp refuse each other', () => {
  it('a .dgp given as .dgx', () => {
    const dgp = encodePolicyFile(META, weights());
    for (const read of [() => decodeExperienceFile(dgp), () => readExperienceHeader(dgp)]) {
      expectProblem(read, 'wrong-kind', 'this is a DreamGym policy file (.dgp), not an experience model file (.dgx)');
    }
  });

  it('a .dgx given as .dgp', () => {
    const dgx = good();
    for (const read of [() => decodePolicyFile(dgx), () => readPolicyHeader(dgx)]) {
      const e = caught(read, PolicyFileError);
      expect(e.problem).toBe('not-a-policy');
      expect(e.message).toContain('this is a DreamGym experience model file (.dgx), not a policy file (.dgp)');
    }
  });

  it('the right magic with the other kind’s format', () => {
    const { header, weightBytes } = splitFile(good());
    expectProblem(
      () => decodeExperienceFile(buildFile({ ...header, format: 'dreamgym-policy' }, weightBytes)),
      'wrong-kind',
      /policy file \(\.dgp\), not an experience model file.*format "dreamgym-policy", expected "dreamgym-experience"/,
    );
    const e = caught(() => decodePolicyFile(buildFile(header, weightBytes, 'DGPF')), PolicyFileError);
    expect(e.problem).toBe('not-a-policy');
    expect(e.message).toMatch(/experience model file \(\.dgx\), not a policy file/);
  });
});

describe('.dgx rejects bad files', () => {
  it('oversized: checked first, gives both sizes', () => {
    const file = good();
    const e = expectProblem(() => decodeExperienceFile(file, { maxBytes: 64 }), 'oversized', `${file.length} bytes`);
    expect(e.message).toContain('64 bytes) an experience model file may be');
    expectProblem(() => decodeExperienceFile(new Uint8Array(65), { maxBytes: 64 }), 'oversized', /more than/);
  });

  it('wrong magic: PNG, JSON text, empty, too short, unknown format', () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
    expectProblem(() => decodeExperienceFile(png), 'wrong-kind', 'does not start with DGXF (is it a .dgx file?)');
    const json = new TextEncoder().encode(JSON.stringify({ env: 'shop', weights: [] }));
    expectProblem(() => decodeExperienceFile(json), 'wrong-kind', /JSON text file; is it a \.dgx file/);
    expectProblem(() => decodeExperienceFile(new Uint8Array(0)), 'wrong-kind', /empty/);
    expectProblem(() => decodeExperienceFile(new TextEncoder().encode('DG')), 'wrong-kind', /too short/);
    const { header, weightBytes } = splitFile(good());
    expectProblem(
      () => decodeExperienceFile(buildFile({ ...header, format: 'tfjs-model' }, weightBytes)),
      'wrong-kind',
      /format "tfjs-model", expected "dreamgym-experience"/,
    );
  });

  it('truncated: in the length field, mid-header, mid-weights', () => {
    const file = good();
    const headerLength = new DataView(file.buffer).getUint32(4, true);
    expectProblem(() => decodeExperienceFile(file.subarray(0, 3)), 'wrong-kind', /too short/);
    expectProblem(() => decodeExperienceFile(file.subarray(0, 6)), 'truncated', /header length field.*found 6/);
    expectProblem(() => decodeExperienceFile(file.subarray(0, 18)), 'truncated', /inside the header.*found 18/);
    expectProblem(
      () => decodeExperienceFile(file.subarray(0, 8 + headerLength)),
      'truncated',
      new RegExp(`expected ${file.length} bytes`),
    );
    const cut = file.length - 7;
    const e = expectProblem(() => decodeExperienceFile(file.subarray(0, cut)), 'truncated', `found ${cut}`);
    expect(e.message).toContain(`${4 * 23} bytes of weights`);
  });

  it('header not JSON', () => {
    const { weightBytes } = splitFile(good());
    expectProblem(
      () => decodeExperienceFile(buildFile('{"format": "dreamgym-experience", ', weightBytes)),
      'header',
      /not valid JSON/,
    );
    const invalidUtf8 = buildFile('{}');
    invalidUtf8[8] = 0xff;
    expectProblem(() => decodeExperienceFile(invalidUtf8), 'header', /UTF-8/);
    expectProblem(() => decodeExperienceFile(buildFile('[1,2]')), 'header', /must be a JSON object/);
  });

  it('bad version: newer asks for an update, version 0 is refused', () => {
    const { header, weightBytes } = splitFile(good());
    expectProblem(
      () => decodeExperienceFile(buildFile({ ...header, version: 2 }, weightBytes)),
      'version',
      /version 2.*reads version 1.*newer DreamGym; update/,
    );
    expectProblem(
      () => decodeExperienceFile(buildFile({ ...header, version: 0 }, weightBytes)),
      'version',
      /version 0.*reads version 1/,
    );
    expectProblem(
      () => readExperienceHeader(buildFile({ format: 'dreamgym-experience', version: 3, stuff: 1 })),
      'version',
      /newer/,
    );
  });

  it('checksum: one flipped byte inside the weights', () => {
    const file = good().slice();
    file[file.length - 10]! ^= 0x01;
    expectProblem(() => decodeExperienceFile(file), 'checksum', /checksum mismatch.*damaged or modified/);
  });

  it('non-finite: NaN and Infinity that pass the checksum', () => {
    for (const [bad, label] of [
      [Number.NaN, 'NaN'],
      [Number.POSITIVE_INFINITY, 'Infinity'],
      [Number.NEGATIVE_INFINITY, '-Infinity'],
    ] as const) {
      const { header, weightBytes } = splitFile(good());
      new DataView(weightBytes.buffer).setFloat32((12 + 3) * 4, bad, true);
      const file = buildFile({ ...header, weightsSha256: bytesToHex(sha256(weightBytes)) }, weightBytes);
      expectProblem(
        () => decodeExperienceFile(file),
        'non-finite',
        `weight "encoder/bias" has a non-finite value (${label}) at index 3`,
      );
    }
  });

  it('trailing bytes after the weights', () => {
    const file = good();
    const longer = new Uint8Array(file.length + 3);
    longer.set(file);
    expectProblem(() => decodeExperienceFile(longer), 'header', '3 unexpected bytes after the weights');
  });

  it('shape mismatch via expectedWeights: shape, name, count', () => {
    const file = good();
    const expected = () => weights().map(({ name, shape }) => ({ name, shape }));
    const wrongShape = expected();
    wrongShape[1] = { name: 'encoder/bias', shape: [6] };
    expectProblem(
      () => decodeExperienceFile(file, { expectedWeights: () => wrongShape }),
      'shape',
      'weight "encoder/bias" has shape [5] in the file, but the network expects [6]',
    );
    const wrongName = expected();
    wrongName[0] = { name: 'other/kernel', shape: [3, 4] };
    expectProblem(
      () => decodeExperienceFile(file, { expectedWeights: () => wrongName }),
      'shape',
      /"encoder\/kernel".*"other\/kernel"/,
    );
    expectProblem(
      () => decodeExperienceFile(file, { expectedWeights: () => [...expected(), { name: 'extra', shape: [2] }] }),
      'shape',
      /has 3 weights, but the network expects 4 \(first missing: "extra"\)/,
    );
    // an error the callback throws itself passes through unchanged
    const own = new ModelFileError('header', 'architecture.kind is "gru"; this build runs experience model file kind "mlp"');
    expect(() =>
      decodeExperienceFile(file, {
        expectedWeights: () => {
          throw own;
        },
      }),
    ).toThrow(own);
  });
});

describe('encodeExperienceFile refuses broken models', () => {
  it('rejects NaN, mismatched data and metadata a reader would refuse', () => {
    const w = weights();
    w[2]!.data[4] = Number.NaN;
    expectProblem(
      () => encodeExperienceFile(META, w),
      'non-finite',
      'weight "reward/kernel" has a non-finite value (NaN) at index 4',
    );
    const v = weights();
    v[1] = { name: 'encoder/bias', shape: [6], data: new Float32Array(5) };
    const e = caught(() => encodeExperienceFile(META, v), ModelFileError);
    expect(e.problem).toBe('shape');
    const bad = caught(() => encodeExperienceFile({ ...META, env: '' }, weights()), ModelFileError);
    expect(bad.problem).toBe('header');
    expect(bad.message).toMatch(/cannot encode: header field env/);
  });
});
