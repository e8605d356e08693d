/**
 * The Evaluate view's player: a saved policy (`.dgp`, or safetensors and its card) loaded, checked
 * and played greedily in its real environment one step at a time, with the probability of every
 * candidate it scored, or judged on N held-out tasks by training's own evaluation. It lives in the trainer worker beside the training runs (it shares their
 * tfjs backend), as `TrainerService.player`. Plain class, no worker APIs.
 */
import { DreamGymError, UsageError } from '../core/errors.ts';
import type { Observation, Task } from '../core/types.ts';
import { envSpec } from '../envs/registry.ts';
import { envPicture } from '../jobs/trace-recorder.ts';
import type { TracePicture } from '../jobs/trace-report.ts';
import type { PolicyFileHeader } from '../policy/dgp.ts';
import { importPolicy, inspectPolicyFile } from '../policy/policy-file.ts';
import { policyFromSafetensors, policyToSafetensors } from '../policy/policy-safetensors.ts';
import type { Policy } from '../policy/policy.ts';
import { evaluateHeldOut, type EvalResult } from '../train/evaluate.ts';
import { publicTask, taskAt, type EpisodeStart, type PlayedStep } from './env-session.ts';

/** A held-out evaluation of the loaded policy: training's own, on the env's test split. */
export interface HeldOutEvaluation {
  result: EvalResult;
  /** Stopped before every episode was played: `result` counts those that were. */
  stopped: boolean;
  /** The episodes asked for. */
  requested: number;
  seconds: number;
}

/** One step of the loaded policy: the step as the Play view shows it, plus why the policy chose it. */
export interface PolicyStep extends PlayedStep {
  /** Every candidate the policy scored, with its probability, best first. */
  candidates: { action: string; probability: number }[];
  value: number;
  /** The page as the policy saw it when it chose (a web env), for the trace report; absent where the env shows no pictures. */
  picture?: TracePicture;
  /** The page once the episode ended, on the step that ended it. */
  endPicture?: TracePicture;
}

/** What the player needs of the worker it lives in. */
export interface PolicyPlayerHost {
  /** Start the worker's tfjs backend, if it has none yet. */
  ensureBackend: () => Promise<void>;
  /** The web tasks a training run narrows the environment to while it goes on (null: none). */
  activeTasks: () => readonly string[] | null;
}

export class PolicyPlayer {
  private loaded: { policy: Policy; header: PolicyFileHeader; bytes: Uint8Array } | null = null;
  private episode: { env: ReturnType<ReturnType<typeof envSpec>['createEnv']>; task: Task; observation: Observation; history: string[]; done: boolean } | null = null;
  /** The held-out evaluation going on: its Stop flag. */
  private evaluation: { stopped: boolean } | null = null;

  constructor(private readonly host: PolicyPlayerHost) {}

  /** Header only, for showing a file before loading it. Throws PolicyFileError on a bad file. */
  inspectPolicy(bytes: Uint8Array): PolicyFileHeader {
    return inspectPolicyFile(bytes);
  }

  /** Load a `.dgp` for the Evaluate view; a bad file is rejected before anything is replaced. */
  async loadPolicy(bytes: Uint8Array): Promise<PolicyFileHeader> {
    if (this.evaluation) throw new UsageError('a held-out evaluation is going on; stop it before loading another policy');
    await this.host.ensureBackend();
    const loaded = importPolicy(bytes);
    this.loaded?.policy.dispose();
    this.loaded = { ...loaded, bytes };
    this.episode = null;
    return loaded.header;
  }

  /** Load a policy exported as safetensors (its `model.safetensors` and `config.json`), checked as a `.dgp` is. */
  async loadSafetensorsPolicy(weights: Uint8Array, config: string): Promise<PolicyFileHeader> {
    return this.loadPolicy(policyFromSafetensors(weights, config));
  }

  /** The loaded policy as files others can read: `model.safetensors` and `config.json` (its card). */
  exportLoadedSafetensors(): { weights: Uint8Array; config: string } {
    const { weights, config } = policyToSafetensors(this.requireLoaded().bytes);
    return { weights, config: `${JSON.stringify(config, null, 2)}\n` };
  }

  /** Reset the loaded policy's env on a task of a split; answers as `EnvSession.start` does. */
  async startEpisode(split: string, index: number): Promise<EpisodeStart> {
    const envName = this.requireLoaded().header.env;
    // A run's Tasks narrow the environment here until it ends; the Evaluate view numbers tasks over the whole split.
    const activeTasks = this.host.activeTasks();
    if (activeTasks && envName === 'web') throw new UsageError(`a training run on some web tasks (${activeTasks.join(', ')}) is going on; play episodes here when it has ended`);
    const task = taskAt(envName, split, index);
    await this.episode?.env.close?.();
    this.episode = null;
    const env = envSpec(envName).createEnv();
    const observation = await env.reset(task);
    this.episode = { env, task, observation, history: [], done: false };
    return { task: publicTask(task), split, index, observation };
  }

  /** One greedy step of the loaded policy in the real env. */
  async stepPolicy(): Promise<PolicyStep> {
    const loaded = this.requireLoaded();
    const episode = this.episode;
    if (!episode) throw new UsageError('start an episode first');
    if (episode.done) throw new UsageError('the episode has ended; start another');
    const picture = await envPicture(episode.env);
    const [choice] = await loaded.policy.act([{ env: episode.task.env, instruction: episode.task.instruction, observation: episode.observation, history: episode.history }], { greedy: true });
    if (!choice) throw new DreamGymError('no-choice', 'the policy returned no action');
    const result = await episode.env.step(choice.action);
    episode.history.push(choice.action);
    episode.observation = result.observation;
    episode.done = result.done;
    const endPicture = result.done ? await envPicture(episode.env) : undefined;
    return {
      ...(picture ? { picture } : {}),
      ...(endPicture ? { endPicture } : {}),
      action: choice.action,
      result,
      candidates: choice.candidates
        .map((action, k) => ({ action, probability: Math.exp(choice.logProbs[k] as number) }))
        .sort((a, b) => b.probability - a.probability),
      value: choice.value,
    };
  }

  /**
   * The loaded policy played greedily on `episodes` tasks of its environment's held-out test split,
   * in the real environment: the evaluation a training run ends with (train/evaluate.ts), drawn
   * with the seed the policy was trained with, so the same number of episodes draws the same tasks
   * as that run's own evaluation. Progress counts finished episodes; `stopEvaluation` ends it early.
   * With `expectedWeightsSha256`, refused unless the loaded policy has those weights.
   */
  async evaluate(episodes: number, onProgress?: (done: number, total: number) => void, expectedWeightsSha256?: string): Promise<HeldOutEvaluation> {
    const { policy, header } = this.requireLoaded();
    // The player is shared (the guided run plays its dream policy here too): never judge another policy than the one the page shows.
    if (expectedWeightsSha256 !== undefined && header.weightsSha256 !== expectedWeightsSha256) throw new UsageError('another policy was loaded into the player meanwhile (the guided run plays its dream policy there); open this policy again');
    if (this.evaluation) throw new UsageError('a held-out evaluation is going on already');
    if (!Number.isSafeInteger(episodes) || episodes < 1) throw new UsageError(`episodes: a whole number of at least 1 (got ${episodes})`);
    const activeTasks = this.host.activeTasks();
    if (activeTasks && header.env === 'web') throw new UsageError(`a training run on some web tasks (${activeTasks.join(', ')}) is going on; evaluate here when it has ended`);
    await this.host.ensureBackend();
    const spec = envSpec(header.env);
    const seed = typeof header.training.seed === 'number' && Number.isSafeInteger(header.training.seed) ? header.training.seed : 0;
    const evaluation = { stopped: false };
    this.evaluation = evaluation;
    const started = performance.now();
    try {
      const result = await evaluateHeldOut(
        { spec, policy, split: spec.testSplit, seed },
        episodes,
        {
          control: { get isStopped() { return evaluation.stopped; }, checkpoint: () => Promise.resolve() },
          ...(onProgress ? { onEvalProgress: onProgress } : {}),
        },
      );
      return { result, stopped: evaluation.stopped && result.episodes < episodes, requested: episodes, seconds: (performance.now() - started) / 1000 };
    } finally {
      this.evaluation = null;
    }
  }

  /** Stop the held-out evaluation going on (it resolves with the episodes played so far). */
  stopEvaluation(): void {
    if (this.evaluation) this.evaluation.stopped = true;
  }

  private requireLoaded(): { policy: Policy; header: PolicyFileHeader; bytes: Uint8Array } {
    if (!this.loaded) throw new UsageError('load a .dgp policy file first');
    return this.loaded;
  }}
