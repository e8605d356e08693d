/**
 * A demonstration played inside the dream: the first demonstrated episode of a suite task kind in
 * a buffer, replayed step by step in the synthetic environment (the model's likeliest next states,
 * k = 3 examples, nothing written back) on the kind's first train tasks, each step taken as the
 * action of the predicted state that opens as the demonstrated one and names most of the task's
 * words (element numbers and typed values aside). DROP=I leaves out the demonstration's I-th
 * step (0-based): what the dream pays for the same episode without it.
 *
 *   [DROP=I] node --import tsx results/priors/dream-replay.ts BUFFER.jsonl MODEL.dgx KIND [FIRST (0)] [COUNT (6)]
 *
 * Prints each task's steps with the reward and end the dream predicted.
 */
import { readFileSync } from 'node:fs';
import { envSpec } from '../../src/envs/registry.ts';
import { withoutActionId } from '../../src/envs/web/actions.ts';
import { importNeuralModel } from '../../src/experience/neural/model-io.ts';
import { SyntheticWorld } from '../../src/experience/synthetic-env.ts';
import { useSite } from '../../src/jobs/site.ts';
import { useBackend } from '../../src/platform/tf.ts';
import { loadStoreFile } from '../../src/replay/file-store.ts';
import { MemoryReplayStore } from '../../src/replay/memory-store.ts';
import { ReplayBuffer } from '../../src/replay/retrieval.ts';

const [bufferPath, modelPath, kind, first = '0', count = '6'] = process.argv.slice(2);
if (!bufferPath || !modelPath || !kind) {
  console.error('usage: [DROP=I] node --import tsx results/priors/dream-replay.ts BUFFER.jsonl MODEL.dgx KIND [FIRST] [COUNT]');
  process.exit(2);
}
await useBackend(['wasm']);
useSite(null, ['@app']);
const spec = envSpec('web');
const store = new MemoryReplayStore({}, await loadStoreFile(bufferPath));
const buffer = await ReplayBuffer.open(store);
const { model } = importNeuralModel(new Uint8Array(readFileSync(modelPath)));
const stored = (await store.page({ limit: 1_000_000 })).items;
const demonstrated = stored.find((t) => t.taskId.startsWith(`${kind}:`) && t.reward > 0)?.episodeId;
if (demonstrated === undefined) throw new Error(`the buffer holds no rewarded ${kind} episode`);
const drop = process.env.DROP === undefined ? -1 : Number(process.env.DROP);
const demo = stored.filter((t) => t.episodeId === demonstrated).filter((_, i) => i !== drop);
const real = spec.createEnv();
const world = new SyntheticWorld({ env: 'web', model, buffer, k: 3, runId: 'dream-replay', writeBack: false, initialObservation: (task) => real.reset(task) });
const dream = world.createEnv();

/** An action as the demonstration's is compared with it: no element numbers, no typed value. */
const form = (action: string): string => withoutActionId(action).replace(/ \|[^\]]*\]/, ']').toLowerCase();
const opening = (action: string): string => form(action).split(/[[ ]/).slice(0, 2).join(' ');
console.log(`${kind}: the demonstration ${demo.map((t) => t.action).join(' / ')}${drop >= 0 ? ` (its step ${drop} left out)` : ''}`);
for (const task of spec.tasks('train').filter((t) => t.id.startsWith(`${kind}:`)).slice(Number(first), Number(first) + Number(count))) {
  let state = await dream.reset(task);
  console.log(`\n${task.id} ${task.instruction}`);
  const words = new Set(task.instruction.toLowerCase().replace(/'s\b/g, '').split(/[^a-z0-9]+/));
  const named = (action: string): number => form(action).split(/[^a-z0-9]+/).filter((w) => words.has(w)).length;
  for (const step of demo) {
    // Of the actions that open as the demonstrated one, the one naming most of the task's words,
    // then the one that reads as it (an inbox lists the demonstration's own person too).
    const exact = (a: string): number => (form(a) === form(step.action) ? 1 : 0);
    const action = state.actions
      .filter((a) => opening(a) === opening(step.action) && !a.includes('...'))
      .sort((a, b) => named(b) - named(a) || exact(b) - exact(a))[0];
    if (action === undefined) {
      console.log(`  no action like ${step.action} in the predicted state`);
      break;
    }
    const result = await dream.step(action);
    console.log(`  ${action} → reward ${result.reward.toFixed(2)}${result.done ? ', the end' : ''}`);
    state = result.observation;
    if (result.done) break;
  }
}
process.exit(0);
