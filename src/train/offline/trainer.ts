/**
 * The offline baselines' training loop (modes bc and dpo): the same policy network as PPO and GRPO,
 * trained on the replay buffer's real episodes with no environment step. Each iteration is one
 * epoch over the data; the held-out evaluations (`evalEvery` epochs, and the final one) play the
 * real environment exactly as the RL modes' do, so the runs' curves and results compare directly.
 */
import { UsageError } from '../../core/errors.ts';
import { Rng } from '../../core/rng.ts';
import { envSpec } from '../../envs/registry.ts';
import type { EnvSpec } from '../../envs/spec.ts';
import { DEFAULT_POLICY, Policy, type PolicyConfig } from '../../policy/policy.ts';
import { Adam } from '../../rl/adam.ts';
import { guardedUpdate, type Divergence } from '../../rl/divergence.ts';
import { TrainControl } from '../control.ts';
import { envOfflineSettings } from '../env-settings.ts';
import { evaluateHeldOut, heldOutTasks, type EvalResult } from '../evaluate.ts';
import type { IterationMetrics, OfflineMetrics } from '../metrics.ts';
import { OFFLINE_MODES, type OfflineMode } from '../modes.ts';
import type { OfflineSummary, TrainHooks, TrainResult } from '../trainer.ts';
import { startFromSaved, type InitialPolicyInfo } from '../initial-policy.ts';
import { cloneEpoch, cloningData, type CloningData } from './bc.ts';
import { offlineConfig, type DpoConfig, type OfflineConfig, type OfflineSettings } from './config.ts';
import { dpoEpoch, measureReferenceMargins, preferenceData, type PreferenceData } from './dpo.ts';
import type { EpisodeCount, OfflineEpisode } from './episodes.ts';

export interface OfflineTrainOptions {
  env: string;
  mode: OfflineMode;
  seed: number;
  /** The tfjs backend in use, recorded in every result. */
  backend: string;
  /**
   * The buffer's whole real episodes of `env` (episodes.ts), its count of real transitions, and
   * where it lives in the caller's words (a file name; the command that seeds one), for refusals.
   */
  data: { episodes: readonly OfflineEpisode[]; count: EpisodeCount; offlineTransitions: number; source: { name: string; howToSeed: string } };
  config?: OfflineSettings;
  policy?: Partial<PolicyConfig>;
  /**
   * Start from this saved policy's weights instead of the seed's fresh network (`train --mode bc
   * --init FILE.dgp | pretrained`): demonstrations cloned into a pretrained policy. DPO's reference
   * is then that policy.
   */
  initialPolicy?: { name: string; bytes: Uint8Array };
  /** The split evaluations play; default the environment's test split. */
  evalSplit?: string;
  /**
   * Evaluate only on the split's tasks the data holds no episode of: held-out tasks of the split
   * the data came from (shop's train tasks), so settings can be chosen without the test split.
   */
  evalUnseen?: boolean;
  /** Evaluate every this many epochs (0: only at the end). */
  evalEvery?: number;
  /** Held-out episodes per evaluation during training; default every task of the split once. */
  evalEpisodes?: number;
  /** Held-out episodes of the final evaluation; default every task of the split once. */
  finalEvalEpisodes?: number;
}

export class OfflineTrainer {
  readonly spec: EnvSpec;
  readonly policy: Policy;
  readonly policyConfig: PolicyConfig;
  /** The saved policy the run started from, if any (`OfflineTrainOptions.initialPolicy`). */
  readonly initialPolicy: InitialPolicyInfo | null;
  readonly config: OfflineConfig;
  readonly history: IterationMetrics[] = [];
  /** Always 0: the offline modes take no environment step outside evaluation. */
  readonly realTransitions = 0;
  readonly syntheticTransitions = 0;
  /** No curriculum: an offline mode chooses no task. */
  readonly curriculum = null;
  lastEval: EvalResult | null = null;
  private readonly optimizer: Adam;
  private readonly evalSplit: string;
  /** Task ids evaluations leave out (evalUnseen), or none. */
  private readonly evalExclude: ReadonlySet<string> | undefined;
  /** What the run trains on: mode bc's cloned steps, or mode dpo's pairs (the other is null). */
  readonly cloning: CloningData | null = null;
  readonly preferences: PreferenceData | null = null;
  /** An epoch is changing the weights (they are no epoch's policy until it ends). */
  private updating = false;

  /** Throws a UsageError, before any work, when the data holds nothing this mode can learn from. */
  constructor(readonly options: OfflineTrainOptions) {
    if (!OFFLINE_MODES.includes(options.mode)) throw new UsageError(`unknown offline mode "${options.mode}"; use one of: ${OFFLINE_MODES.join(', ')}`);
    if (!Number.isInteger(options.seed)) throw new UsageError(`the seed must be an integer, got ${options.seed}`);
    this.spec = envSpec(options.env);
    // The mode's defaults, then the environment's (chosen on its validation data), then the caller's.
    this.config = offlineConfig(options.mode, envOfflineSettings(this.spec, options.mode), options.config);
    const { epochs, minibatchSize, learningRate } = this.config;
    if (!Number.isInteger(epochs) || epochs < 0) throw new UsageError(`epochs must be an integer ≥ 0, got ${epochs}`);
    if (!Number.isInteger(minibatchSize) || minibatchSize < 1) throw new UsageError(`minibatchSize must be a positive integer, got ${minibatchSize}`);
    if (!(learningRate > 0)) throw new UsageError(`the learning rate must be positive, got ${learningRate}`);
    if (this.config.algo === 'dpo' && !(this.config.beta > 0)) throw new UsageError(`DPO's β must be positive, got ${this.config.beta}`);
    this.policyConfig = { ...DEFAULT_POLICY, ...options.policy };
    // The same initial network as an RL run with this seed, so `train --iterations 0` is this run's starting point.
    this.policy = new Policy(this.policyConfig, options.seed);
    this.initialPolicy = options.initialPolicy ? startFromSaved(this.policy, this.policyConfig, options.initialPolicy) : null;
    this.optimizer = new Adam(this.policy.network.variables);
    this.evalSplit = options.evalSplit ?? this.spec.testSplit;
    const { episodes, count, source } = options.data;
    this.evalExclude = options.evalUnseen ? new Set(episodes.map((e) => e.taskId)) : undefined;
    // An unknown split, or one the data covers whole, is refused before any epoch.
    if (heldOutTasks(this.spec, this.evalSplit, this.evalExclude).length === 0) throw new UsageError(`${source.name} holds an episode of every ${this.evalSplit} task, so no unseen one is left to evaluate on; evaluate on another split`);
    const env = options.env;
    const held = `${count.episodes} whole ${env} episodes, ${count.successes} successful`;
    if (options.mode === 'bc') {
      if (count.successes === 0) throw new UsageError(`${source.name} has no successful ${env} episode to clone (${held}); ${source.howToSeed}`);
      this.cloning = cloningData(this.policy, episodes);
      if (this.cloning.steps.length === 0) throw new UsageError(`none of the ${count.successes} successful ${env} episodes in ${source.name} has a step the policy could have taken, so there is nothing to clone`);
    } else {
      if (count.successes === 0 || count.failures === 0) {
        const missing = count.successes === 0 ? 'successful' : 'failed';
        throw new UsageError(`${source.name} has no ${missing} ${env} episode, so no preference pair for DPO, which needs both (${held}); ${source.howToSeed}`);
      }
      this.preferences = preferenceData(this.policy, episodes);
      if (this.preferences.pairs.length === 0) throw new UsageError(`none of the ${this.preferences.droppedPairs} preference pairs in ${source.name} has a step the policy could have taken on both sides, so DPO has no pair`);
    }
  }

  /** Whether the weights are those of the last finished epoch (or the start), not halfway through one (Trainer.settled). */
  get settled(): boolean {
    return !this.updating;
  }

  /** Greedy held-out evaluation; `episodes` undefined means every task of the split once. */
  async evaluate(hooks: TrainHooks, episodes: number | undefined): Promise<EvalResult> {
    this.lastEval = await evaluateHeldOut({ spec: this.spec, policy: this.policy, split: this.evalSplit, seed: this.options.seed, exclude: this.evalExclude }, episodes, hooks);
    return this.lastEval;
  }

  async run(hooks: TrainHooks = {}): Promise<TrainResult> {
    const { options, config } = this;
    const control = hooks.control ?? new TrainControl();
    const started = performance.now();
    const rng = new Rng(`offline:${options.env}:${options.mode}:${options.seed}`);
    if (this.preferences) await measureReferenceMargins(this.policy, this.preferences);
    const evalEvery = options.evalEvery ?? 0;
    let epoch = 0;
    let diverged: Divergence | null = null;
    while (epoch < config.epochs && !control.isStopped) {
      await control.checkpoint();
      if (control.isStopped) break;
      const epochStart = performance.now();
      this.updating = true;
      const update = await guardedUpdate(this.optimizer, this.policy.network.variables, () => this.epoch(rng), (e) => ({
        loss: e.offline.loss,
        entropy: e.entropy,
        gradNorm: e.gradNorm,
        ...(e.offline.margin !== undefined ? { margin: e.offline.margin } : {}),
      })).finally(() => (this.updating = false));
      if (update.nonFinite.length > 0) {
        // The weights are the previous epoch's again; the run ends here, its history without this epoch.
        diverged = { iteration: epoch + 1, nonFinite: update.nonFinite, learningRate: config.learningRate };
        break;
      }
      const { offline, entropy, gradNorm, samples } = update.stats;
      epoch++;
      const seconds = (performance.now() - epochStart) / 1000;
      const metrics: IterationMetrics = {
        iteration: epoch,
        phase: 'offline',
        realTransitions: 0,
        syntheticTransitions: 0,
        episodes: 0,
        samplesPerIteration: 0,
        successRate: 0,
        meanScore: 0,
        meanReturn: 0,
        entropy,
        approxKl: 0,
        clipFraction: 0,
        policyLoss: offline.loss,
        valueLoss: 0,
        referenceKl: 0,
        gradNorm,
        learningRate: config.learningRate,
        samplesPerSecond: samples / seconds,
        wallSeconds: (performance.now() - started) / 1000,
        offline,
      };
      // The last epoch is evaluated by the final evaluation.
      const last = epoch >= config.epochs || control.isStopped;
      if (!last && evalEvery > 0 && epoch % evalEvery === 0) metrics.eval = await this.evaluate(hooks, options.evalEpisodes);
      this.history.push(metrics);
      hooks.onIteration?.(metrics);
    }
    const stopped = control.isStopped;
    const finalEval = stopped || diverged ? this.lastEval : await this.evaluate({ ...hooks, control: new TrainControl() }, options.finalEvalEpisodes);
    return {
      env: options.env,
      mode: options.mode,
      algo: options.mode,
      backend: options.backend,
      seed: options.seed,
      config,
      realTransitions: 0,
      syntheticTransitions: 0,
      offline: this.summary(),
      ...(this.initialPolicy ? { initialPolicy: this.initialPolicy } : {}),
      wallSeconds: (performance.now() - started) / 1000,
      iterations: epoch,
      stopped,
      ...(diverged ? { diverged } : {}),
      eval: finalEval,
      history: this.history,
    };
  }

  private async epoch(rng: Rng): Promise<{ offline: OfflineMetrics; entropy: number; gradNorm: number; samples: number }> {
    if (this.cloning) {
      const s = await cloneEpoch(this.policy, this.optimizer, this.cloning, this.config, rng);
      return { offline: { loss: s.loss, accuracy: s.agreement, gradientSteps: s.gradientSteps }, entropy: s.entropy, gradNorm: s.gradNorm, samples: this.cloning.steps.length };
    }
    const data = this.preferences as PreferenceData;
    const s = await dpoEpoch(this.policy, this.optimizer, data, this.config as DpoConfig, rng);
    const samples = data.pairs.reduce((a, p) => a + p.chosen.length + p.rejected.length, 0);
    return { offline: { loss: s.loss, accuracy: s.accuracy, margin: s.margin, gradientSteps: s.gradientSteps }, entropy: s.entropy, gradNorm: s.gradNorm, samples };
  }

  /** What the run trained on, for its result. */
  summary(): OfflineSummary {
    const { count, offlineTransitions } = this.options.data;
    const base = { offlineTransitions, episodes: count.episodes, successes: count.successes, failures: count.failures };
    const nearest = (steps: readonly { nearestQuery: boolean }[]) => steps.filter((s) => s.nearestQuery).length;
    if (this.cloning) return { ...base, steps: this.cloning.steps.length, skippedSteps: this.cloning.skippedSteps, nearestQuerySteps: nearest(this.cloning.steps) };
    const data = this.preferences as PreferenceData;
    const by = (f: (p: PreferenceData['pairs'][number]) => boolean) => data.pairs.filter(f).length;
    return {
      ...base,
      steps: data.steps.length,
      skippedSteps: data.skippedSteps,
      nearestQuerySteps: nearest(data.steps),
      pairs: {
        total: data.pairs.length,
        state: by((p) => p.kind === 'state'),
        trajectory: by((p) => p.kind === 'trajectory'),
        sameTask: by((p) => p.partner === 'same-task'),
        neighbour: by((p) => p.partner === 'neighbour'),
        dropped: data.droppedPairs,
      },
    };
  }
}
