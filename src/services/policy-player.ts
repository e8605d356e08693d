/**
 * The Evaluate view's player: a saved policy (`.dgp`, or safetensors and its card) loaded, checked
 * and played greedily in its real environment one step at a time, with the probability of every
 * candidate it scored. It lives in the trainer worker beside the training runs (it shares their
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
import { publicTask, taskAt, type EpisodeStart, type PlayedStep } from './env-session.ts';

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

  constructor(private readonly host: PolicyPlayerHost) {}

  /** Header only, for showing a file before loading it. Throws PolicyFileError on a bad file. */
  inspectPolicy(bytes: Uint8Array): PolicyFileHeader {
    return inspectPolicyFile(bytes);
  }

  /** Load a `.dgp` for the Evaluate view; a bad file is rejected before anything is replaced. */
  async loadPolicy(bytes: Uint8Array): Promise<PolicyFileHeader> {
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

  private requireLoaded(): { policy: Policy; header: PolicyFileHeader; bytes: Uint8Array } {
    if (!this.loaded) throw new UsageError('load a .dgp policy file first');
    return this.loaded;
  }}
