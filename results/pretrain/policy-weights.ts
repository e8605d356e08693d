/**
 * What training moved in a policy: for each policy file, the weight of each relation on its linear
 * path to the logit (src/policy/featurizer.ts ACTION_RELATIONS; an untrained policy holds the
 * prior, DEFAULT_RELATION_PRIOR) and the L2 norm of every weight tensor, as JSON.
 *
 *   node --import tsx results/pretrain/policy-weights.ts artifacts/untrained-web-seed1.dgp public/pretrained/web/policy.dgp
 */
import { readFileSync } from 'node:fs';
import { ACTION_RELATIONS } from '../../src/policy/featurizer.ts';
import { checkPolicyWeights } from '../../src/policy/policy-file.ts';

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error('usage: node --import tsx results/pretrain/policy-weights.ts FILE.dgp [FILE.dgp …]');
  process.exit(2);
}
const round = (x: number) => Number(x.toFixed(3));
const norm = (values: Float32Array) => Math.sqrt(values.reduce((sum, v) => sum + v * v, 0));
const out = files.map((file) => {
  const { weights } = checkPolicyWeights(new Uint8Array(readFileSync(file)));
  const relation = weights.find((w) => w.name === 'score/relation_kernel');
  if (!relation) throw new Error(`${file}: no score/relation_kernel (not a choice-mlp policy)`);
  return {
    file,
    relations: Object.fromEntries(ACTION_RELATIONS.map((name, i) => [name, round(relation.data[i] as number)])),
    norms: Object.fromEntries(weights.map((w) => [w.name, round(norm(w.data))])),
  };
});
console.log(JSON.stringify(out, null, 2));
