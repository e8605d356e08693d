/**
 * The backend probe's workload on the real shapes (platform/backend-probe.ts measures it): one PPO
 * update of the default shop policy on a 256-step minibatch, and one neural-model line-head pass
 * over a batch-of-32 prediction's rows. `chooseBackend` is what `auto` means in the app: every
 * backend the platform offers, measured, the fastest kept.
 */
import { Rng } from '../core/rng.ts';
import { envSpec } from '../envs/registry.ts';
import { architectureOf, DEFAULT_NEURAL_CONFIG, HASH_SLOTS } from '../experience/neural/model.ts';
import { NeuralNetwork, Rows } from '../experience/neural/network.ts';
import { probeBackends, type BackendProbe, type ProbeOptions, type ProbeWorkload } from '../platform/backend-probe.ts';
import { platformBackends, useBackend, type BackendName } from '../platform/tf.ts';
import { DEFAULT_POLICY, Policy } from '../policy/policy.ts';
import { Adam } from '../rl/adam.ts';
import { DEFAULT_PPO } from '../rl/config.ts';
import { collectTrajectories } from '../rl/rollout.ts';
import { ppoSamples } from '../rl/samples.ts';
import { optimize, type UpdateSample } from '../rl/update.ts';

/** Rows of the line head as a batch-of-32 prediction makes them (about 48 candidate lines each). */
const PROBE_LINE_ROWS = 32 * 48;
const PROBE_MINIBATCH = 256;

/** The real shapes: the default shop policy's update and the default neural model's line head. */
export const realShapes: ProbeWorkload = {
  async prepare() {
    const rng = new Rng('backend-probe');
    const policy = new Policy(DEFAULT_POLICY, 1);
    // The minibatch is plain numbers: collected once, on the first backend, and reused.
    probeSamples ??= collectProbeSamples(policy, rng);
    const samples = await probeSamples;
    const optimizer = new Adam(policy.network.variables);
    const config = { ...DEFAULT_PPO, epochs: 1, minibatchSize: samples.length, targetKl: null };

    const arch = architectureOf(DEFAULT_NEURAL_CONFIG);
    const network = new NeuralNetwork(arch, { seed: 1 });
    const rows = new Rows(arch.heads.line, HASH_SLOTS.line);
    for (let i = 0; i < PROBE_LINE_ROWS; i++) {
      rows.push({ dense: Array.from({ length: arch.heads.line.dense }, () => rng.next()), hashed: Array.from({ length: HASH_SLOTS.line }, (_, j) => `probe ${j} ${i % 61}`) }, [0]);
    }
    const indices = Array.from({ length: rows.count }, (_, i) => i);
    return {
      update: async () => {
        await optimize(policy, optimizer, samples, config, 1e-4, rng);
      },
      predict: async () => {
        await network.logits('line', rows, indices);
      },
      dispose: () => {
        policy.dispose();
        optimizer.dispose();
        network.dispose();
      },
    };
  },
};

let probeSamples: Promise<UpdateSample[]> | undefined;

async function collectProbeSamples(policy: Policy, rng: Rng): Promise<UpdateSample[]> {
  const spec = envSpec('shop');
  const tasks = Array.from({ length: 48 }, () => rng.pick(spec.tasks('train')));
  const envs = Array.from({ length: 16 }, () => spec.createEnv());
  const { trajectories } = await collectTrajectories({ envs, tasks, policy, greedy: false, rng });
  return ppoSamples(trajectories, DEFAULT_PPO).slice(0, PROBE_MINIBATCH);
}

/**
 * Measure `candidates` on the real shapes and switch to the fastest. wasm is measured first when
 * offered: it starts fast and steady everywhere, so a backend far slower than it (a software
 * WebGPU) is cut after one run instead of costing the person seconds of repeats.
 */
export function chooseBackend(candidates: readonly BackendName[], options: Omit<ProbeOptions, 'workload'> = {}): Promise<BackendProbe> {
  const order = [...candidates].sort((a, b) => Number(b === 'wasm') - Number(a === 'wasm'));
  return probeBackends(order, { ...options, workload: realShapes });
}

const measured = new Map<string, Promise<BackendProbe>>();

/**
 * `chooseBackend` once per worker (per list of candidates): the figures do not change while the
 * page lives, and every later start reuses them. A probe that failed is tried again next time.
 */
export function measuredBackend(candidates: readonly BackendName[]): Promise<BackendProbe> {
  const key = candidates.join(',');
  let probe = measured.get(key);
  if (!probe) {
    probe = chooseBackend(candidates);
    measured.set(key, probe);
    probe.catch(() => measured.delete(key));
  }
  return probe;
}

/**
 * What a worker's `init` does, the trainer's and the experience model's alike: a named backend is
 * started as named (the first of `preference` that works, no probe); none named means `auto`, the
 * fastest of `candidates` measured (once per worker), started again here since another backend may
 * have been current since.
 */
export async function startBackend(preference: readonly BackendName[] | undefined, candidates: readonly BackendName[] = platformBackends()): Promise<{ backend: BackendName; probe: BackendProbe | null }> {
  if (preference) return { backend: await useBackend(preference), probe: null };
  const probe = await measuredBackend(candidates);
  return { backend: await useBackend([probe.chosen]), probe };
}
