/**
 * Policies as files others can read: the safetensors layout written and read back exactly, bad
 * files refused with what is wrong, the CLI's export/import round trip, and numpy alone reading
 * the weights to the same action scores as the policy (examples/read-policy.py).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envSpec } from '../../../src/envs/registry.ts';
import { useBackend } from '../../../src/platform/tf.ts';
import { readPolicyHeader } from '../../../src/policy/dgp.ts';
import { DEFAULT_FEATURIZER } from '../../../src/policy/featurizer.ts';
import { exportPolicy, importPolicy, type PolicyFileInfo } from '../../../src/policy/policy-file.ts';
import { policyFromSafetensors, policyToSafetensors } from '../../../src/policy/policy-safetensors.ts';
import { DEFAULT_POLICY, Policy } from '../../../src/policy/policy.ts';
import { SafetensorsError, decodeSafetensors, encodeSafetensors } from '../../../src/policy/safetensors.ts';
import type { CommandIO } from '../../../src/cli/io.ts';
import { main } from '../../../src/cli/main.ts';

/** The CLI in-process: its exit code and what it printed. */
async function runCli(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const io: CommandIO = { out: (t) => out.push(t), progress: (t) => err.push(t), result: (v) => out.push(JSON.stringify(v)) };
  const code = await main(argv, io);
  return { code, stdout: out.join('\n'), stderr: err.join('\n') };
}

const info: PolicyFileInfo = {
  env: 'shop', algorithm: 'grpo', backend: 'cpu',
  training: { mode: 'real', seed: 3, realBudget: 1000, realTransitions: 990 }, evaluation: { split: 'test', episodes: 20, successRate: 0.35, meanScore: 48 },
  createdAt: '2026-11-26T00:00:00.000Z',
};
const small = { ...DEFAULT_POLICY, hidden: 24, featurizer: { ...DEFAULT_FEATURIZER, stateBuckets: 256, actionBuckets: 128 } };
const work = mkdtempSync(path.join(tmpdir(), 'dreamgym-safetensors-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const tensors = [
  { name: 'a', shape: [2, 3], data: Float32Array.from([1, -2, 3.5, 0, 1e-8, -0]) },
  { name: 'b/bias', shape: [1], data: Float32Array.from([42]) },
];

describe('the safetensors layout', () => {
  it('writes an 8-byte length, a JSON header padded to 8 bytes, then the raw tensors, and reads them back exactly', () => {
    const bytes = encodeSafetensors(tensors, { format: 'test' });
    const length = Number(new DataView(bytes.buffer).getBigUint64(0, true));
    expect(length % 8).toBe(0);
    const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + length)));
    expect(header).toEqual({ __metadata__: { format: 'test' }, a: { dtype: 'F32', shape: [2, 3], data_offsets: [0, 24] }, 'b/bias': { dtype: 'F32', shape: [1], data_offsets: [24, 28] } });
    expect(bytes.length).toBe(8 + length + 28);
    const back = decodeSafetensors(bytes);
    expect(back.metadata).toEqual({ format: 'test' });
    expect(back.tensors.map((t) => [t.name, t.shape, [...t.data]])).toEqual(tensors.map((t) => [t.name, t.shape, [...t.data]]));
  });

  it('refuses a file that is short, lies about its header, has another dtype, a gap or trailing bytes', () => {
    const good = encodeSafetensors(tensors);
    const length = Number(new DataView(good.buffer).getBigUint64(0, true));
    const withHeader = (header: unknown, data = good.subarray(8 + length)): Uint8Array => {
      const json = new TextEncoder().encode(JSON.stringify(header));
      const out = new Uint8Array(8 + json.length + data.length);
      new DataView(out.buffer).setBigUint64(0, BigInt(json.length), true);
      out.set(json, 8);
      out.set(data, 8 + json.length);
      return out;
    };
    const cases: [Uint8Array, RegExp][] = [
      [good.subarray(0, 5), /too short/],
      [good.subarray(0, 40), /more than the file holds/],
      [withHeader({ a: { dtype: 'F16', shape: [2, 3], data_offsets: [0, 24] }, 'b/bias': { dtype: 'F32', shape: [1], data_offsets: [24, 28] } }), /tensor a is "F16"; only F32/],
      [withHeader({ a: { dtype: 'F32', shape: [2, 3], data_offsets: [4, 28] } }), /starts at byte 4 of the data, not 0/],
      [withHeader({ a: { dtype: 'F32', shape: [2, 2], data_offsets: [0, 24] } }), /needs 16 bytes, its offsets give 24/],
      [withHeader({ a: { dtype: 'F32', shape: [2, 3], data_offsets: [0, 24] } }), /the tensors end at byte .* but the file has/],
    ];
    for (const [bytes, message] of cases) expect(() => decodeSafetensors(bytes)).toThrow(message);
    expect(() => decodeSafetensors(withHeader('x'))).toThrow(SafetensorsError);
  });
});

describe('a policy as safetensors and config.json', () => {
  let dgp: Uint8Array;
  let policy: Policy;
  beforeAll(async () => {
    await useBackend(['cpu']);
    policy = new Policy(small, 5);
    dgp = await exportPolicy(policy, info);
    writeFileSync(path.join(work, 'policy.dgp'), dgp);
  });

  it('round-trips to the same weights and card, and the imported policy scores actions the same', async () => {
    const { weights, config } = policyToSafetensors(dgp);
    expect(config).toMatchObject({ format: 'dreamgym-policy-safetensors', env: 'shop', algorithm: 'grpo', training: info.training, evaluation: info.evaluation });
    const back = policyFromSafetensors(weights, JSON.stringify(config));
    expect(readPolicyHeader(back).weightsSha256).toBe(readPolicyHeader(dgp).weightsSha256);
    const task = envSpec('shop').tasks('test')[0]!;
    const observation = await envSpec('shop').createEnv().reset(task);
    const input = { env: 'shop', instruction: task.instruction, observation, history: [] };
    const [before] = await policy.act([input], { greedy: true });
    const [after] = await importPolicy(back).policy.act([input], { greedy: true });
    expect([...after!.logProbs]).toEqual([...before!.logProbs]);
  });

  it('refuses a config of something else, and weights that do not match the card', () => {
    const { weights, config } = policyToSafetensors(dgp);
    expect(() => policyFromSafetensors(weights, '{"format":"other"}')).toThrow(/not a DreamGym policy's \(format "other", expected/);
    // Another tool's config without the field, or JSON that is no object at all: said in words, not "format undefined" or a TypeError.
    expect(() => policyFromSafetensors(weights, '{"model_type":"bert"}')).toThrow(/config\.json has no "format" field/);
    expect(() => policyFromSafetensors(weights, 'null')).toThrow(/config\.json holds null, not a DreamGym policy's config/);
    expect(() => policyFromSafetensors(weights, '[1]')).toThrow(/config\.json holds a JSON array/);
    const missing = { ...config, weights: config.weights.slice(1) };
    expect(() => policyFromSafetensors(weights, JSON.stringify(missing))).toThrow(/holds 15 tensors; config.json lists 14/);
    const wider = { ...config, architecture: { ...config.architecture, hidden: 32 } };
    expect(() => policyFromSafetensors(weights, JSON.stringify(wider))).toThrow(/state\/kernel/);
  });

  it('the CLI exports and imports it, and numpy alone reads the weights to the same action scores', async () => {
    const out = path.join(work, 'exported');
    const exported = await runCli(['policy', 'export', path.join(work, 'policy.dgp'), '--format', 'safetensors', '--out', out, '--json']);
    expect(exported.code, exported.stderr).toBe(0);
    expect(JSON.parse(exported.stdout.trim().split('\n').at(-1) as string)).toMatchObject({ tensors: 15, env: 'shop' });
    const imported = await runCli(['policy', 'import', out, '--out', path.join(work, 'back.dgp')]);
    expect(imported.code, imported.stderr).toBe(0);
    expect(readPolicyHeader(new Uint8Array(readFileSync(path.join(work, 'back.dgp')))).weightsSha256).toBe(readPolicyHeader(dgp).weightsSha256);

    const task = envSpec('shop').tasks('test')[3]!;
    const observation = await envSpec('shop').createEnv().reset(task);
    const [choice] = await policy.act([{ env: 'shop', instruction: task.instruction, observation, history: [] }], { greedy: true });
    writeFileSync(path.join(work, 'features.json'), JSON.stringify(choice!.features));
    // Python with numpy is part of the test setup (.ci/run installs Debian's python3-numpy).
    const printed = execFileSync('python3', ['examples/read-policy.py', out, path.join(work, 'features.json')], { encoding: 'utf8' });
    const numpy = JSON.parse(printed) as { env: string; logProbs: number[] };
    expect(numpy.env).toBe('shop');
    expect(numpy.logProbs).toHaveLength(choice!.candidates.length);
    numpy.logProbs.forEach((lp, k) => expect(lp).toBeCloseTo(choice!.logProbs[k] as number, 4));
  });

  it('says what is wrong with a bad command line', async () => {
    const noFormat = await runCli(['policy', 'export', path.join(work, 'policy.dgp'), '--out', path.join(work, 'x')]);
    expect(noFormat.code).toBe(2);
    expect(noFormat.stderr).toMatch(/--format safetensors is required/);
    const noDir = await runCli(['policy', 'import', path.join(work, 'nothing-here'), '--out', path.join(work, 'y.dgp')]);
    expect(noDir.code).toBe(2);
    expect(noDir.stderr).toMatch(/the weights .*model.safetensors does not exist/);
  });
});
