import { beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '../../../src/platform/tf.ts';
import { envSpec } from '../../../src/envs/registry.ts';
import { DEFAULT_FEATURIZER } from '../../../src/policy/featurizer.ts';
import { PolicyFileError } from '../../../src/policy/dgp.ts';
import { exportPolicy, importPolicy, inspectPolicyFile, type PolicyFileInfo } from '../../../src/policy/policy-file.ts';
import { DEFAULT_POLICY, Policy } from '../../../src/policy/policy.ts';
import { evaluatePolicy } from '../../../src/train/evaluate.ts';
import { tf } from '../../../src/platform/tf.ts';

const info: PolicyFileInfo = {
  env: 'shop',
  algorithm: 'ppo',
  backend: 'cpu',
  training: { realTransitions: 0 },
  evaluation: null,
  createdAt: '2026-11-20T00:00:00.000Z',
};
const small = { ...DEFAULT_POLICY, hidden: 24, featurizer: { ...DEFAULT_FEATURIZER, stateBuckets: 256, actionBuckets: 128 } };

/** Replace the JSON header of a .dgp (keeping its weights) to fake files from other builds. */
function withHeader(bytes: Uint8Array, edit: (header: Record<string, unknown>) => void): Uint8Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const length = view.getUint32(4, true);
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + length))) as Record<string, unknown>;
  const weights = bytes.subarray(8 + length + ((4 - (length % 4)) % 4));
  edit(header);
  const json = new TextEncoder().encode(JSON.stringify(header));
  const pad = (4 - (json.length % 4)) % 4;
  const out = new Uint8Array(8 + json.length + pad + weights.length);
  out.set(new TextEncoder().encode('DGPF'));
  new DataView(out.buffer).setUint32(4, json.length, true);
  out.set(json, 8);
  out.set(weights, 8 + json.length + pad);
  return out;
}

function problemOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(PolicyFileError);
    return `${(error as PolicyFileError).problem}: ${(error as Error).message}`;
  }
  throw new Error('expected a PolicyFileError');
}

describe('policy files', () => {
  beforeAll(async () => {
    await useBackend(['cpu']);
  });

  it('round-trips: the loaded policy takes exactly the same greedy actions', async () => {
    const spec = envSpec('shop');
    const policy = new Policy(small, 11);
    // Move the weights away from their seeded initial values so a loader that re-initialised would differ.
    policy.network.variables.forEach((v, i) => v.assign(tf.add(v, tf.mul(0.05 * ((i % 3) - 1), tf.onesLike(v)))));
    const bytes = await exportPolicy(policy, info);
    const { policy: loaded, header } = importPolicy(bytes);
    expect(header.env).toBe('shop');
    expect(header.architecture.hidden).toBe(24);
    expect(inspectPolicyFile(bytes).weightsSha256).toBe(header.weightsSha256);
    const a = await evaluatePolicy({ spec, policy, split: 'test', episodes: 30, seed: 3 });
    const b = await evaluatePolicy({ spec, policy: loaded, split: 'test', episodes: 30, seed: 3 });
    expect(b.actionsDigest).toBe(a.actionsDigest);
    expect(b.meanSteps).toBeGreaterThan(1);
    const again = await exportPolicy(loaded, info);
    expect(inspectPolicyFile(again).weightsSha256).toBe(header.weightsSha256);
    policy.dispose();
    loaded.dispose();
  });

  it('rejects weights whose shapes do not fit the architecture the header declares', async () => {
    const bytes = await exportPolicy(new Policy(small, 1), info);
    const lying = withHeader(bytes, (h) => ((h.architecture as Record<string, unknown>).hidden = 32));
    expect(problemOf(() => importPolicy(lying))).toMatch(/^shape: .*state\/kernel/);
  });

  it('rejects an architecture or featurizer this build does not run, naming the field', async () => {
    const bytes = await exportPolicy(new Policy(small, 1), info);
    const kind = withHeader(bytes, (h) => ((h.architecture as Record<string, unknown>).kind = 'transformer'));
    expect(problemOf(() => importPolicy(kind))).toMatch(/^header: architecture.kind is "transformer"/);
    const buckets = withHeader(bytes, (h) => ((h.featurizer as Record<string, unknown>).stateBuckets = -4));
    expect(problemOf(() => importPolicy(buckets))).toMatch(/^header: .*featurizer.stateBuckets/);
    const relations = withHeader(bytes, (h) => ((h.featurizer as Record<string, unknown>).actionRelations = ['bias']));
    expect(problemOf(() => importPolicy(relations))).toMatch(/^header: .*relation features/);
  });

  it('refuses a web policy whose page actions were read as household commands, and still reads such a shop policy', async () => {
    const old = (h: Record<string, unknown>) => delete (h.featurizer as Record<string, unknown>).pageActions;
    const web = await exportPolicy(new Policy(small, 1), { ...info, env: 'web' });
    expect(importPolicy(web).header.env).toBe('web');
    expect(problemOf(() => importPolicy(withHeader(web, old)))).toMatch(/^header: this web policy was trained when page actions were read as household commands/);
    const shop = await exportPolicy(new Policy(small, 1), info);
    expect(importPolicy(withHeader(shop, old)).header.env).toBe('shop');
  });

  it('rejects a file that is not a policy before building anything', () => {
    expect(problemOf(() => importPolicy(new TextEncoder().encode('{"hello": "world"}')))).toMatch(/^not-a-policy/);
  });
});
