import { describe, expect, it } from 'vitest';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { DreamGymError } from '../../../src/core/errors.ts';
import {
  DGP_MAGIC,
  DGP_VERSION,
  PolicyFileError,
  decodePolicyFile,
  encodePolicyFile,
  readPolicyHeader,
  type PolicyFileMeta,
  type PolicyFileProblem,
  type WeightEntry,
} from '../../../src/policy/dgp.ts';
import { DGP_MAX_HEADER_BYTES } from '../../../src/core/weight-file.ts';

const META: PolicyFileMeta = {
  env: 'shop',
  algorithm: 'ppo',
  backend: 'cpu',
  architecture: { hidden: [4, 5], activation: 'tanh' },
  featurizer: { kind: 'hashed', dims: 3 },
  training: { iterations: 12, realTransitions: 300, syntheticTransitions: 1200, seed: 7 },
  evaluation: { split: 'test', episodes: 20, successRate: 0.45, meanScore: 0.61 },
  createdAt: '2025-01-02T03:04:05.000Z',
};

function weights(): WeightEntry[] {
  const seq = (n: number, f: (i: number) => number) => Float32Array.from({ length: n }, (_, i) => f(i));
  return [
    { name: 'dense/kernel', shape: [3, 4], data: seq(12, (i) => Math.sin(i + 1) * 1e-3) },
    { name: 'dense/bias', shape: [5], data: seq(5, (i) => -i / 3) },
    { name: 'head/kernel', shape: [1, 2, 3], data: seq(6, (i) => (i - 2.5) * 1e30) },
  ];
}

/** Builds a file from a header object and raw weight bytes, exactly in the .dgp layout. */
function buildFile(header: unknown, weightBytes: Uint8Array = new Uint8Array(0)): Uint8Array {
  const json = new TextEncoder().encode(typeof header === 'string' ? header : JSON.stringify(header));
  const start = (8 + json.length + 3) & ~3;
  const out = new Uint8Array(start + weightBytes.length);
  out.set(new TextEncoder().encode(DGP_MAGIC), 0);
  new DataView(out.buffer).setUint32(4, json.length, true);
  out.set(json, 8);
  out.set(weightBytes, start);
  return out;
}

/** Splits a valid file into its parsed header and a copy of its weight bytes. */
function splitFile(file: Uint8Array): { header: Record<string, unknown>; weightBytes: Uint8Array } {
  const length = new DataView(file.buffer, file.byteOffset).getUint32(4, true);
  const header = JSON.parse(new TextDecoder().decode(file.subarray(8, 8 + length))) as Record<string, unknown>;
  return { header, weightBytes: file.slice((8 + length + 3) & ~3) };
}

function caught(fn: () => unknown): PolicyFileError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(PolicyFileError);
    return e as PolicyFileError;
  }
  throw new Error('expected a PolicyFileError, but nothing was thrown');
}

function expectProblem(fn: () => unknown, problem: PolicyFileProblem, text: string | RegExp): PolicyFileError {
  const e = caught(fn);
  expect(e.problem).toBe(problem);
  expect(e.code).toBe(`policy-file-${problem}`);
  expect(e).toBeInstanceOf(DreamGymError);
  expect(e.message).toMatch(text);
  return e;
}

const bitsOf = (a: Float32Array) => Array.from(new Uint32Array(a.buffer, a.byteOffset, a.length));

describe('.dgp round trip', () => {
  it('gives identical header fields and bit-identical weights', () => {
    const input = weights();
    const file = encodePolicyFile(META, input);
    expect(new TextDecoder().decode(file.subarray(0, 4))).toBe('DGPF');
    const { header, weights: out } = decodePolicyFile(file);
    expect(header).toMatchObject(META);
    expect(header.format).toBe('dreamgym-policy');
    expect(header.version).toBe(DGP_VERSION);
    expect(header.weights).toEqual([
      { name: 'dense/kernel', shape: [3, 4], dtype: 'float32' },
      { name: 'dense/bias', shape: [5], dtype: 'float32' },
      { name: 'head/kernel', shape: [1, 2, 3], dtype: 'float32' },
    ]);
    expect(header.weightsByteLength).toBe(4 * (12 + 5 + 6));
    expect(header.weightsSha256).toMatch(/^[0-9a-f]{64}$/);
    expect(out.map((w) => [w.name, w.shape])).toEqual(input.map((w) => [w.name, w.shape]));
    out.forEach((w, i) => {
      expect(w.data).toBeInstanceOf(Float32Array);
      expect(bitsOf(w.data)).toEqual(bitsOf(input[i]!.data));
    });
    // weights start on a 4-byte boundary and the file ends with them
    expect((file.length - header.weightsByteLength) % 4).toBe(0);
  });

  it('decodes an unaligned input and never aliases it', () => {
    const file = encodePolicyFile(META, weights());
    const holder = new Uint8Array(file.length + 1);
    holder.set(file, 1);
    const unaligned = holder.subarray(1);
    const { weights: out } = decodePolicyFile(unaligned);
    out.forEach((w, i) => expect(bitsOf(w.data)).toEqual(bitsOf(weights()[i]!.data)));
    for (const w of out) expect(w.data.buffer).not.toBe(holder.buffer);
    holder.fill(0xff); // changing the input afterwards leaves the decoded weights alone
    expect(bitsOf(out[1]!.data)).toEqual(bitsOf(weights()[1]!.data));
  });

  it('decodes a Node Buffer, whose slice() is a view and not a copy, to the same weights', () => {
    // readFileSync hands back a Buffer; reading weights through Buffer#slice().buffer from 0 once
    // loaded the file's first bytes as weights and passed every check.
    const file = Buffer.from(encodePolicyFile(META, weights()));
    const { weights: out } = decodePolicyFile(file);
    out.forEach((w, i) => expect(bitsOf(w.data)).toEqual(bitsOf(weights()[i]!.data)));
  });

  it('round-trips a policy with no evaluation and no weights', () => {
    const file = encodePolicyFile({ ...META, evaluation: null }, []);
    const { header, weights: out } = decodePolicyFile(file);
    expect(header.evaluation).toBeNull();
    expect(header.weightsByteLength).toBe(0);
    expect(out).toEqual([]);
  });

  it('accepts matching expectedWeights and passes it the header', () => {
    const file = encodePolicyFile(META, weights());
    let seen: unknown;
    const { weights: out } = decodePolicyFile(file, {
      expectedWeights: (h) => {
        seen = h.architecture;
        return weights().map(({ name, shape }) => ({ name, shape }));
      },
    });
    expect(seen).toEqual(META.architecture);
    expect(out).toHaveLength(3);
  });
});

describe('readPolicyHeader', () => {
  it('returns the header without needing the weights to be valid', () => {
    const file = encodePolicyFile(META, weights());
    const { header, weightBytes } = splitFile(file);
    // weights cut short and corrupted: decode refuses, the header is still readable
    const broken = buildFile(header, weightBytes.subarray(0, 10).map(() => 0xff));
    expect(() => decodePolicyFile(broken)).toThrow(PolicyFileError);
    const h = readPolicyHeader(broken);
    expect(h).toMatchObject(META);
    expect(h.weights.map((w) => w.name)).toEqual(['dense/kernel', 'dense/bias', 'head/kernel']);
  });

  it('reports the same header errors as decode', () => {
    expectProblem(() => readPolicyHeader(buildFile({ ...META, format: 'dreamgym-policy', version: 2 })), 'version', /newer/);
    expectProblem(() => readPolicyHeader(new Uint8Array(100), { maxBytes: 50 }), 'oversized', /100 bytes/);
  });
});

describe('.dgp rejects bad files', () => {
  const good = () => encodePolicyFile(META, weights());

  it('oversized: checked first, gives both sizes', () => {
    const file = good();
    const e = expectProblem(() => decodePolicyFile(file, { maxBytes: 64 }), 'oversized', `${file.length} bytes`);
    expect(e.message).toContain('64 bytes');
    // even garbage is refused for its size before anything is parsed
    expectProblem(() => decodePolicyFile(new Uint8Array(65), { maxBytes: 64 }), 'oversized', /more than/);
  });

  it('not a policy: PNG, JSON text, empty file, wrong format', () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
    expectProblem(() => decodePolicyFile(png), 'not-a-policy', 'does not start with DGPF (is it a .dgp file?)');
    const json = new TextEncoder().encode(JSON.stringify({ env: 'shop', weights: [] }));
    expectProblem(() => decodePolicyFile(json), 'not-a-policy', /JSON text file/);
    expectProblem(() => decodePolicyFile(new Uint8Array(0)), 'not-a-policy', /empty/);
    expectProblem(() => decodePolicyFile(new TextEncoder().encode('DG')), 'not-a-policy', /too short/);
    const { header, weightBytes } = splitFile(good());
    expectProblem(
      () => decodePolicyFile(buildFile({ ...header, format: 'tfjs-model' }, weightBytes)),
      'not-a-policy',
      /format "tfjs-model"/,
    );
    const { format: _format, ...noFormat } = header;
    expectProblem(() => decodePolicyFile(buildFile(noFormat, weightBytes)), 'not-a-policy', /no format field/);
  });

  it('truncated: in the magic, in the length field, mid-header, mid-weights', () => {
    const file = good();
    const headerLength = new DataView(file.buffer).getUint32(4, true);
    // inside the magic it cannot even be recognised
    expectProblem(() => decodePolicyFile(file.subarray(0, 3)), 'not-a-policy', /too short/);
    expectProblem(() => decodePolicyFile(file.subarray(0, 6)), 'truncated', /header length field.*found 6/);
    expectProblem(() => decodePolicyFile(file.subarray(0, 8 + 10)), 'truncated', /inside the header.*found 18/);
    expectProblem(
      () => decodePolicyFile(file.subarray(0, 8 + headerLength)),
      'truncated',
      new RegExp(`expected ${file.length} bytes`),
    );
    const cut = file.length - 7;
    const e = expectProblem(() => decodePolicyFile(file.subarray(0, cut)), 'truncated', `found ${cut}`);
    expect(e.message).toContain(`expected ${file.length} bytes`);
    expect(e.message).toContain(`${4 * 23} bytes of weights`);
  });

  it('version: a newer file asks for an update, version 0 is refused', () => {
    const { header, weightBytes } = splitFile(good());
    const newer = expectProblem(
      () => decodePolicyFile(buildFile({ ...header, version: 2 }, weightBytes)),
      'version',
      /version 2.*reads version 1.*newer DreamGym; update/,
    );
    expect(newer.message).toContain('update');
    expectProblem(
      () => decodePolicyFile(buildFile({ ...header, version: 0 }, weightBytes)),
      'version',
      /version 0.*reads version 1/,
    );
    // version is checked before the other fields: a newer file with fields this build does not know
    expectProblem(() => decodePolicyFile(buildFile({ format: 'dreamgym-policy', version: 3, stuff: 1 })), 'version', /newer/);
  });

  it('shape: expectedWeights differ by shape, name or count', () => {
    const file = good();
    const expected = () => weights().map(({ name, shape }) => ({ name, shape }));
    const wrongShape = expected();
    wrongShape[1] = { name: 'dense/bias', shape: [6] };
    expectProblem(
      () => decodePolicyFile(file, { expectedWeights: () => wrongShape }),
      'shape',
      'weight "dense/bias" has shape [5] in the file, but the network expects [6]',
    );
    const wrongName = expected();
    wrongName[0] = { name: 'other/kernel', shape: [3, 4] };
    expectProblem(() => decodePolicyFile(file, { expectedWeights: () => wrongName }), 'shape', /"dense\/kernel".*"other\/kernel"/);
    expectProblem(
      () => decodePolicyFile(file, { expectedWeights: () => [...expected(), { name: 'extra', shape: [2] }] }),
      'shape',
      /has 3 weights, but the network expects 4 \(first missing: "extra"\)/,
    );
    expectProblem(
      () => decodePolicyFile(file, { expectedWeights: () => expected().slice(0, 2) }),
      'shape',
      /has 3 weights, but the network expects 2/,
    );
  });

  it('checksum: one flipped byte inside the weights', () => {
    const file = good().slice();
    file[file.length - 10]! ^= 0x01;
    expectProblem(() => decodePolicyFile(file), 'checksum', /checksum mismatch.*damaged or modified/);
  });

  it('non-finite: NaN and Infinity that pass the checksum', () => {
    for (const [bad, label] of [
      [Number.NaN, 'NaN'],
      [Number.POSITIVE_INFINITY, 'Infinity'],
      [Number.NEGATIVE_INFINITY, '-Infinity'],
    ] as const) {
      const { header, weightBytes } = splitFile(good());
      // dense/bias starts after the 12 floats of dense/kernel; poison its element 3
      new DataView(weightBytes.buffer).setFloat32((12 + 3) * 4, bad, true);
      const file = buildFile({ ...header, weightsSha256: bytesToHex(sha256(weightBytes)) }, weightBytes);
      expectProblem(() => decodePolicyFile(file), 'non-finite', `weight "dense/bias" has a non-finite value (${label}) at index 3`);
    }
  });

  it('header garbage: invalid JSON, missing or mistyped fields, bad manifest', () => {
    const { header, weightBytes } = splitFile(good());
    expectProblem(() => decodePolicyFile(buildFile('{"format": "dreamgym-policy", ', weightBytes)), 'header', /not valid JSON/);
    const invalidUtf8 = buildFile('{}');
    invalidUtf8[8] = 0xff;
    expectProblem(() => decodePolicyFile(invalidUtf8), 'header', /UTF-8/);
    expectProblem(() => decodePolicyFile(buildFile('[1,2]')), 'header', /must be a JSON object/);

    const { env: _env, ...noEnv } = header;
    expectProblem(() => decodePolicyFile(buildFile(noEnv, weightBytes)), 'header', 'header field env must be a non-empty string');
    expectProblem(
      () => decodePolicyFile(buildFile({ ...header, training: 'lots' }, weightBytes)),
      'header',
      'header field training must be a JSON object, got "lots"',
    );
    expectProblem(
      () => decodePolicyFile(buildFile({ ...header, createdAt: 'yesterday' }, weightBytes)),
      'header',
      /createdAt must be an ISO date/,
    );

    const manifest = header.weights as Record<string, unknown>[];
    const withWeights = (w: unknown[]) => buildFile({ ...header, weights: w }, weightBytes);
    expectProblem(
      () => decodePolicyFile(withWeights([manifest[0], manifest[1], { ...manifest[2], shape: [1, -2, 3] }])),
      'header',
      'header field weights[2].shape must be an array of positive integers',
    );
    expectProblem(
      () => decodePolicyFile(withWeights([manifest[0], { ...manifest[1], dtype: 'float16' }, manifest[2]])),
      'header',
      /weights\[1\]\.dtype is "float16".*only "float32"/,
    );
    expectProblem(
      () => decodePolicyFile(withWeights([manifest[0], { ...manifest[1], name: 'dense/kernel' }, manifest[2]])),
      'header',
      /weight "dense\/kernel" twice/,
    );
    expectProblem(
      () => decodePolicyFile(buildFile({ ...header, weightsByteLength: 88 }, weightBytes.subarray(0, 88))),
      'header',
      /weightsByteLength is 88, but the weight shapes need 92 bytes/,
    );
    expectProblem(
      () => decodePolicyFile(buildFile({ ...header, weightsSha256: 'abc' }, weightBytes)),
      'header',
      /weightsSha256 must be 64 hexadecimal/,
    );

    const hugeLength = good().slice();
    new DataView(hugeLength.buffer).setUint32(4, DGP_MAX_HEADER_BYTES + 1, true);
    expectProblem(() => decodePolicyFile(hugeLength), 'header', /header length field says/);
  });

  it('header: trailing bytes after the weights', () => {
    const file = good();
    const longer = new Uint8Array(file.length + 3);
    longer.set(file);
    expectProblem(() => decodePolicyFile(longer), 'header', '3 unexpected bytes after the weights');
  });
});

describe('encodePolicyFile refuses broken policies', () => {
  it('rejects NaN/Infinity with a non-finite error', () => {
    const w = weights();
    w[2]!.data[4] = Number.NaN;
    expectProblem(() => encodePolicyFile(META, w), 'non-finite', 'weight "head/kernel" has a non-finite value (NaN) at index 4');
    const v = weights();
    v[0]!.data[0] = Number.POSITIVE_INFINITY;
    expectProblem(() => encodePolicyFile(META, v), 'non-finite', /"dense\/kernel".*Infinity.*index 0/);
  });

  it('rejects data whose length does not match its shape', () => {
    const w = weights();
    w[1] = { name: 'dense/bias', shape: [6], data: new Float32Array(5) };
    expectProblem(() => encodePolicyFile(META, w), 'shape', 'weight "dense/bias" has shape [6] (6 values) but its data holds 5 values');
  });

  it('rejects metadata a reader would refuse', () => {
    expectProblem(() => encodePolicyFile({ ...META, env: '' }, weights()), 'header', /cannot encode: header field env/);
    const dup = weights();
    dup[1]!.name = 'dense/kernel';
    expectProblem(() => encodePolicyFile(META, dup), 'header', /two weights are named "dense\/kernel"/);
  });
});
