import { describe, expect, it } from 'vitest';
import { featureDigest } from '../../../experiments/feature-digest.ts';
import { envSpec } from '../../../src/envs/registry.ts';
import { DEFAULT_FEATURIZER, Featurizer } from '../../../src/policy/featurizer.ts';

describe('feature-digest', () => {
  it('gives the same digest for the same features, and another when the features change', async () => {
    const spec = envSpec('shop');
    const once = await featureDigest(spec, { episodes: 5, seed: 3 });
    const again = await featureDigest(spec, { episodes: 5, seed: 3 });
    expect(once.steps).toBeGreaterThan(0);
    expect(again).toEqual(once);
    const fewerBuckets = await featureDigest(spec, { episodes: 5, seed: 3, featurizer: new Featurizer({ ...DEFAULT_FEATURIZER, actionBuckets: 512 }) });
    expect(fewerBuckets.steps).toBe(once.steps);
    expect(fewerBuckets.digest).not.toBe(once.digest);
  });
});
