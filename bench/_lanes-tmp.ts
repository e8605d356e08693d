import { readFile } from 'node:fs/promises';
import { useSite } from '../src/jobs/site.ts';
import { envSpec } from '../src/envs/registry.ts';
import { importPolicy } from '../src/policy/policy-file.ts';
import { evaluatePolicy } from '../src/train/evaluate.ts';
import { useBackend } from '../src/platform/tf.ts';
await useBackend(['wasm']);
useSite('@generated-held-out', []);
const spec = envSpec('web');
const { policy } = importPolicy(new Uint8Array(await readFile(process.argv[2]!)));
const episodes = Number(process.argv[3] ?? 64);
for (const lanes of (process.argv[4] ?? '1,8,50').split(',').map(Number)) {
  const t = performance.now();
  const per: string[] = [];
  const r = await evaluatePolicy({ spec, policy, split: process.argv[5] ?? 'test', episodes, seed: 1, parallelEnvs: lanes, onEpisode: (tr, i) => (per[i] = `${tr.task.id}:${tr.steps.length}:${tr.steps.at(-1)?.reward}`) });
  console.log(JSON.stringify({ lanes, digest: r.actionsDigest.slice(0, 12), success: r.successRate, meanSteps: r.meanSteps, envErrors: r.envErrors ?? 0, s: ((performance.now() - t) / 1000).toFixed(1), steps: per.map((p) => p.split(':')[1]).join(',') }));
}
process.exit(0);
