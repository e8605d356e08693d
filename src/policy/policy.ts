/**
 * The policy: featurizer + network + query proposer behind one `act` call. It only ever chooses
 * among the admissible actions (with the search box's template expanded into proposed queries).
 */
import { DreamGymError } from '../core/errors.ts';
import type { Rng } from '../core/rng.ts';
import { backendOnHost, tf } from '../platform/tf.ts';
import { ACTION_RELATIONS, actionWidth, DEFAULT_FEATURIZER, Featurizer, packBatch, packSparse, relationPrior, stateWidth, type FeaturizerConfig, type Features, type PolicyInput } from './featurizer.ts';
import { DEFAULT_HIDDEN, PolicyNetwork, type NetworkConfig } from './network.ts';
import { expandActions } from '../core/queries.ts';
import { envSpec } from '../envs/registry.ts';

export interface PolicyConfig {
  featurizer: FeaturizerConfig;
  hidden: number;
  inputInitStd: number;
  /** Scale of the starting relation prior (featurizer.ts DEFAULT_RELATION_PRIOR); 0 starts uniform. */
  priorScale: number;
}

export const DEFAULT_POLICY: PolicyConfig = { featurizer: DEFAULT_FEATURIZER, hidden: DEFAULT_HIDDEN, inputInitStd: 0.3, priorScale: 1 };

export interface ActionChoice {
  action: string;
  index: number;
  candidates: string[];
  /** log π over `candidates` (a view into the batch's read-back, no copy). */
  logProbs: Float32Array;
  logProb: number;
  value: number;
  features: Features;
}

/** One step to act on: the featurizer's input and the environment, whose spec proposes the queries a search template stands for. */
export interface ActInput extends PolicyInput {
  env: string;
}

/** What a rollout asks of a policy: its choices (so a wrapper that watches them, jobs/trace-recorder.ts, can stand in). */
export type Actor = Pick<Policy, 'act'>;

export class NoActionsError extends DreamGymError {
  constructor() {
    super('no-actions', 'the observation lists no admissible actions, so the policy has nothing to choose from');
  }
}

export type InputLayout = 'sparse' | 'dense';

let forcedLayout: InputLayout | null = null;

/**
 * Batches in one layout whatever the backend (null: by the backend again). For `bench policy`,
 * which times an update both ways in one run, and the test that compares them; the two compute
 * the same function.
 */
export function forceInputLayout(layout: InputLayout | null): void {
  forcedLayout = layout;
}

/** The layout batches take now: sparse rows on a CPU-side backend, dense tensors on a GPU, unless forced. */
export function inputLayout(): InputLayout {
  return forcedLayout ?? (backendOnHost() ? 'sparse' : 'dense');
}

/**
 * A batch as the network reads it; dispose its tensors (or build inside tf.tidy). On a CPU-side
 * backend the states and actions stay sparse rows on the host (platform/dense.ts sparseInputDense);
 * on a GPU backend they are dense tensors, with their transposes when `transposed` (for updates).
 */
export function batchTensors(features: readonly Features[], config: FeaturizerConfig, options: { maxActions?: number; transposed?: boolean } = {}) {
  if (inputLayout() === 'sparse') {
    const packed = packSparse(features, config, options);
    return {
      size: packed.size,
      maxActions: packed.maxActions,
      states: packed.states,
      actions: packed.actions,
      mask: tf.tensor2d(packed.mask, [packed.size, packed.maxActions]),
      relations: tf.tensor2d(packed.relations, [packed.actions.rows, ACTION_RELATIONS.length]),
    };
  }
  const packed = packBatch(features, config, options);
  const S = stateWidth(config);
  const A = actionWidth(config);
  const rows = packed.size * packed.maxActions;
  return {
    size: packed.size,
    maxActions: packed.maxActions,
    states: tf.tensor2d(packed.states, [packed.size, S]),
    actions: tf.tensor2d(packed.actions, [rows, A]),
    mask: tf.tensor2d(packed.mask, [packed.size, packed.maxActions]),
    relations: tf.tensor2d(packed.relations, [rows, ACTION_RELATIONS.length]),
    ...(packed.statesT && packed.actionsT
      ? { statesT: tf.tensor2d(packed.statesT, [S, packed.size]), actionsT: tf.tensor2d(packed.actionsT, [A, rows]) }
      : {}),
  };
}

export class Policy {
  readonly featurizer: Featurizer;
  readonly network: PolicyNetwork;

  constructor(
    readonly config: PolicyConfig,
    seed: number | string,
  ) {
    this.featurizer = new Featurizer(config.featurizer);
    this.network = new PolicyNetwork(networkConfig(config), seed);
  }

  candidates(input: ActInput): string[] {
    const candidates = expandActions(input.observation, input.instruction, envSpec(input.env).proposeQueries);
    if (candidates.length === 0) throw new NoActionsError();
    return candidates;
  }

  /**
   * Choose one action per input, sampling with `rng` or greedily. One batched forward pass and one
   * asynchronous read-back for the whole batch.
   */
  async act(inputs: readonly ActInput[], options: { greedy: boolean; rng?: Rng }): Promise<ActionChoice[]> {
    if (inputs.length === 0) return [];
    const candidateLists = inputs.map((input) => this.candidates(input));
    const features = inputs.map((input, i) => this.featurizer.featurize(input, candidateLists[i] as string[]));
    const { logProbs, values } = tf.tidy(() => {
      const batch = batchTensors(features, this.config.featurizer);
      const out = this.network.forward(batch);
      return { logProbs: out.logProbs, values: out.values };
    });
    const [lp, v] = await Promise.all([logProbs.data<'float32'>(), values.data<'float32'>()]);
    const K = logProbs.shape[1] as number;
    logProbs.dispose();
    values.dispose();
    return candidateLists.map((candidates, n) => {
      const row = lp.subarray(n * K, n * K + candidates.length);
      let index = 0;
      if (options.greedy || !options.rng) {
        for (let k = 1; k < row.length; k++) if ((row[k] as number) > (row[index] as number)) index = k;
      } else {
        let u = options.rng.next();
        index = row.length - 1;
        for (let k = 0; k < row.length; k++) {
          u -= Math.exp(row[k] as number);
          if (u < 0) {
            index = k;
            break;
          }
        }
      }
      return {
        action: candidates[index] as string,
        index,
        candidates,
        logProbs: row,
        logProb: row[index] as number,
        value: v[n] as number,
        features: features[n] as Features,
      };
    });
  }

  dispose(): void {
    this.network.dispose();
  }
}

export function networkConfig(config: PolicyConfig): NetworkConfig {
  return {
    stateWidth: stateWidth(config.featurizer),
    actionWidth: actionWidth(config.featurizer),
    hidden: config.hidden,
    inputInitStd: config.inputInitStd,
    relationPrior: relationPrior(config.priorScale),
  };
}
