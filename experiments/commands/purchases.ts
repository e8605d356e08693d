/**
 * `purchases`: prints a shop policy's greedy purchases on the test split by why they fell short,
 * each with its real reward and the neural experience model's, how many products each episode
 * opened, and whether each wanted option a purchase missed was offered on its page or lacking from
 * the product, and per kind how often the product was the store's first result and its page named
 * every wanted attribute (see ../purchases.ts).
 *
 * `npm run experiment -- purchases --policy FILE.dgp --model FILE.dgx --buffer FILE.jsonl [--k 3]  (shop)`
 */
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { missedOptions, productsOpened, purchaseEvidence, purchaseKind, summarizeEvidence, summarizePurchases, type PurchaseEvidence, type PurchaseKind } from '../purchases.ts';
import { recordingsOf, recordingSpec } from '../../src/envs/recorded-episodes.ts';
import { envSpec } from '../../src/envs/registry.ts';
import { isShopGoal } from '../../src/envs/shop/goal.ts';
import type { RewardBreakdown } from '../../src/envs/shop/reward.ts';
import { importNeuralModel } from '../../src/experience/neural/model-io.ts';
import type { ExperienceInput } from '../../src/experience/types.ts';
import { loadStoreFile } from '../../src/replay/file-store.ts';
import { MemoryReplayStore } from '../../src/replay/memory-store.ts';
import { ReplayBuffer } from '../../src/replay/retrieval.ts';
import { importPolicy } from '../../src/policy/policy-file.ts';
import type { Trajectory } from '../../src/rl/rollout.ts';
import { useBackend } from '../../src/platform/tf.ts';
import { evaluatePolicy } from '../../src/train/evaluate.ts';
import { kOption, usage } from './common.ts';

/** A shop policy's real purchases, and an experience model's reward for each (see purchases.ts). */
export async function printPurchases(argv: string[]): Promise<void> {
  const { values } = parseArgs({ args: argv, options: { policy: { type: 'string' }, model: { type: 'string' }, buffer: { type: 'string' }, k: { type: 'string' } }, strict: true });
  const k = kOption(values.k);
  const policyFile = values.policy ?? usage('--policy FILE.dgp is required');
  const modelFile = values.model ?? usage('--model FILE.dgx is required');
  const bufferFile = values.buffer ?? usage('--buffer FILE.jsonl is required (the offline data the model retrieves from)');
  await useBackend(['wasm']);
  const spec = envSpec('shop');
  const { policy } = importPolicy(new Uint8Array(await readFile(policyFile)));
  const { model } = importNeuralModel(new Uint8Array(await readFile(modelFile)));
  const buffer = await ReplayBuffer.open(new MemoryReplayStore({}, await loadStoreFile(bufferFile)));
  const trajectories: Trajectory[] = [];
  // Every state as played (recorded-episodes.ts).
  const recording = recordingSpec(spec);
  await evaluatePolicy({ spec: recording.spec, policy, split: spec.testSplit, onEpisode: (t) => trajectories.push(t) });
  const episodes = recordingsOf(recording.episodes, trajectories);
  const purchases: { input: ExperienceInput; real: number; kind: PurchaseKind; missing: string[]; evidence: PurchaseEvidence }[] = [];
  // Each episode's steps as texts, once: the purchases' evidence and the products opened read them.
  const walked = episodes.map((e) => e.steps.map((s) => ({ state: s.state.text, action: s.action, next: s.result.observation.text })));
  for (const [e, { task, steps }] of episodes.entries()) {
    for (const [i, { state, action, result, history }] of steps.entries()) {
      const score = result.info['score'] as RewardBreakdown | undefined;
      if (!result.done || !score) continue;
      const evidence = purchaseEvidence((walked[e] ?? []).slice(0, i + 1), isShopGoal(task.goal) ? task.goal.attributes : []);
      purchases.push({ input: { task, history, state, action, examples: [] }, real: result.reward, kind: purchaseKind(score), missing: score.missingOptions, evidence });
    }
  }
  const missed = missedOptions(
    purchases.map((p) => ({ state: p.input.state.text, goalOptions: isShopGoal(p.input.task.goal) ? p.input.task.goal.options : {}, missing: p.missing })),
  );
  const examples = await buffer.nearest(purchases.map((p) => ({ instruction: p.input.task.instruction, state: p.input.state, action: p.input.action })), k, { env: 'shop', source: 'real' });
  const predictions = await model.predict(purchases.map((p, i) => ({ ...p.input, examples: examples[i] ?? [] })));
  const rows = purchases.map((p, i) => ({ kind: p.kind, real: p.real, predicted: predictions[i]?.reward ?? 0 }));
  process.stdout.write(`${JSON.stringify({ policy: policyFile, model: modelFile, buffer: bufferFile, split: spec.testSplit, episodes: trajectories.length, productsOpened: productsOpened(walked), missedOptions: missed, byKind: summarizePurchases(rows), evidenceByKind: summarizeEvidence(purchases.map((p) => ({ kind: p.kind, ...p.evidence }))) })}\n`);
}
