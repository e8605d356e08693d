/**
 * `policy-steps`: prints the neural model's teacher-forced fidelity on a policy's own greedy real
 * steps on the held-out split (or NAME), by kind of page and action (see ../policy-steps.ts).
 *
 * `npm run experiment -- policy-steps --env <shop|home> --policy <FILE.dgp|shopper|oracle|noisy|random> --model FILE.dgx --buffer FILE.jsonl [--episodes 200] [--k 3] [--split NAME]`
 */
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { scoresByStep, stepKind } from '../policy-steps.ts';
import type { Task } from '../../src/core/types.ts';
import { rollout, SCRIPTED_POLICIES } from '../../src/envs/episode.ts';
import { envSpec } from '../../src/envs/registry.ts';
import { recordingsOf, recordingSpec } from '../../src/envs/recorded-episodes.ts';
import { measureFidelity, type HeldoutTransition, type TransitionScore } from '../../src/experience/fidelity.ts';
import { importNeuralModel } from '../../src/experience/neural/model-io.ts';
import { intOption } from '../../src/jobs/node-args.ts';
import { loadStoreFile } from '../../src/replay/file-store.ts';
import { MemoryReplayStore } from '../../src/replay/memory-store.ts';
import { ReplayBuffer } from '../../src/replay/retrieval.ts';
import { importPolicy } from '../../src/policy/policy-file.ts';
import { useBackend } from '../../src/platform/tf.ts';
import { evaluatePolicy } from '../../src/train/evaluate.ts';
import { kOption, usage } from './common.ts';

/** The neural model, teacher-forced, on a policy's own greedy real steps (see policy-steps.ts). */
export async function printPolicySteps(argv: string[]): Promise<void> {
  const { values } = parseArgs({ args: argv, options: { env: { type: 'string' }, policy: { type: 'string' }, model: { type: 'string' }, buffer: { type: 'string' }, episodes: { type: 'string' }, k: { type: 'string' }, split: { type: 'string' } }, strict: true });
  const spec = envSpec(values.env ?? usage('--env is required'));
  // The train split holds the buffer's own tasks: what the dream gets right where it has seen the task.
  const split = values.split ?? spec.testSplit;
  const episodes = intOption(values.episodes, 'episodes', 200, 1);
  const k = kOption(values.k);
  const policyName = values.policy ?? usage(`--policy <FILE.dgp|${SCRIPTED_POLICIES.join('|')}> is required`);
  const modelFile = values.model ?? usage('--model FILE.dgx is required');
  const bufferFile = values.buffer ?? usage('--buffer FILE.jsonl is required (the offline data the model retrieves from)');
  await useBackend(['wasm']);
  const { model } = importNeuralModel(new Uint8Array(await readFile(modelFile)));
  const buffer = await ReplayBuffer.open(new MemoryReplayStore({}, await loadStoreFile(bufferFile)));
  const played: { task: Task; steps: { action: string }[] }[] = [];
  // Every state as played (recorded-episodes.ts).
  const recording = recordingSpec(spec);
  if (policyName.endsWith('.dgp')) {
    const { policy } = importPolicy(new Uint8Array(await readFile(policyName)));
    await evaluatePolicy({ spec: recording.spec, policy, split, episodes, onEpisode: (t) => played.push(t) });
  } else {
    // A scripted agent's episodes: the shopper goes back when a page lacks a wanted option, which
    // a dream policy's greedy episodes rarely show.
    const agent = SCRIPTED_POLICIES.find((p) => p === policyName) ?? usage(`--policy must be a .dgp file or one of: ${SCRIPTED_POLICIES.join(', ')}`);
    await rollout({ spec: recording.spec, policy: agent, split, episodes, seed: 0, onEpisode: (_, record) => played.push(record) });
  }
  const heldout: HeldoutTransition[] = recordingsOf(recording.episodes, played).flatMap(({ task, steps }) =>
    steps.map(({ state, action, result, history }) => ({
      task,
      history,
      transition: { runId: 'policy', taskId: task.id, env: spec.name, instruction: task.instruction, history: history.map((h) => h.action), state, action, next: result.observation, reward: result.reward, done: result.done, source: 'real' as const, createdAt: 0 },
    })),
  );
  const { scores } = await measureFidelity({ model, buffer, k, heldout });
  const rows = heldout.map((h, i) => ({ kind: stepKind(h.transition.state, h.transition.action, h.history), score: scores[i] as TransitionScore }));
  process.stdout.write(`${JSON.stringify({ env: spec.name, policy: policyName, model: modelFile, buffer: bufferFile, split, episodes: played.length, ...scoresByStep(rows) })}\n`);
}
