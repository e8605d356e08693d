/**
 * A binary file dropped on the Runs view, read as the view reads it (`File.text()`: UTF-8, bad bytes
 * as U+FFFD): named in words and pointed to the view that takes it, never quoted byte for byte as
 * JSON.parse's own message would.
 */
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { parseRunFile } from '../../../src/app/runs/run-file.ts';
import type { WeightEntry, WeightFileMeta } from '../../../src/core/weight-file.ts';
import { encodeExperienceFile } from '../../../src/experience/neural/model-file.ts';
import { encodePolicyFile } from '../../../src/policy/dgp.ts';

const META: WeightFileMeta = {
  env: 'shop',
  algorithm: 'ppo',
  backend: 'cpu',
  architecture: { hidden: [4], activation: 'tanh' },
  featurizer: { kind: 'hashed', dims: 3 },
  training: { iterations: 1, realTransitions: 30, syntheticTransitions: 0, seed: 7 },
  evaluation: null,
  createdAt: '2025-01-02T03:04:05.000Z',
};
const WEIGHTS: WeightEntry[] = [{ name: 'dense/kernel', shape: [3, 4], data: Float32Array.from({ length: 12 }, (_, i) => Math.sin(i) * 1e30) }];

/** What the Runs view shows for a file of these bytes. */
async function problemOf(name: string, bytes: Uint8Array): Promise<string> {
  const parsed = parseRunFile(name, await new Blob([bytes as Uint8Array<ArrayBuffer>]).text());
  expect(parsed.ok).toBe(false);
  return parsed.ok ? '' : parsed.problem;
}

describe('the Runs view given a binary file', () => {
  it('names a real .dgp and .dgx file and the view that imports each, without their bytes', async () => {
    const policy = await problemOf('policy.dgp', encodePolicyFile(META, WEIGHTS));
    expect(policy).toBe(
      'policy.dgp: a DreamGym policy file (.dgp), not a training run: import it in the Evaluate view. ' +
      'The Runs view imports a training run written by `train … --history FILE.json` or a paper experiment report.',
    );
    const model = await problemOf('model.dgx', encodeExperienceFile(META, WEIGHTS));
    expect(model).toMatch(/^model\.dgx: a DreamGym experience model file \(\.dgx\), not a training run: import it in the Experience view\. The Runs view imports/);
    for (const message of [policy, model]) {
      // None of the file's bytes: no control character, no U+FFFD, nothing of its header.
      expect([...message].filter((c) => c < ' ' || c === '\uFFFD')).toEqual([]);
      expect(message).not.toMatch(/JSON|dreamgym-|"env"/);
    }
  });

  it('calls other binary data binary data, and still quotes JSON errors in text', async () => {
    const gz = await problemOf('run.json.gz', gzipSync(JSON.stringify({ history: [] })));
    expect(gz).toBe('run.json.gz: binary data (not text), not a training run. The Runs view imports a training run written by `train … --history FILE.json` or a paper experiment report.');
    // Text that is not JSON keeps JSON's message: there it points at the broken spot, in readable text.
    expect(await problemOf('notes.txt', new TextEncoder().encode('loss went down'))).toMatch(/^notes\.txt: not JSON \(.*\)\. Import a training run/);
  });
});
