/**
 * Running scripted agents through real environments: one episode, and an evaluation over many
 * with a transcript digest. The digest is a SHA-256 over every episode's full transcript (task,
 * every observation, action, reward and flag), so two runs agree exactly when their digests do.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { UsageError } from '../core/errors.ts';
import { breather } from '../core/event-loop.ts';
import { Rng } from '../core/rng.ts';
import type { Agent, Env, Observation, StepResult, Task } from '../core/types.ts';
import type { EnvOptions, EnvSpec } from './spec.ts';

export type ScriptedPolicy = 'oracle' | 'random' | 'noisy' | 'shopper' | 'hasty';
export const SCRIPTED_POLICIES: readonly ScriptedPolicy[] = ['oracle', 'random', 'noisy', 'shopper', 'hasty'];

/** The scripted policies `spec` has (the shopper and the hasty oracle only where the environment defines them). */
export function scriptedPoliciesOf(spec: EnvSpec): ScriptedPolicy[] {
  return SCRIPTED_POLICIES.filter((p) => (p !== 'shopper' || spec.createShopper !== undefined) && (p !== 'hasty' || spec.createHasty !== undefined));
}

/**
 * Lets go of envs that are done with for good (a web env's tab, and with it a browser renderer
 * process or an app iframe). Whoever creates an env closes it: an evaluation left 50 tabs open
 * each time it ran, and a long run's processes held over 500 renderers.
 */
export async function closeEnvs(envs: Iterable<Env>): Promise<void> {
  await Promise.all([...envs].map((env) => env.close?.()));
}

/** How often the noisy expert takes a random admissible action instead of the oracle's. */
export const NOISY_EPSILON = 0.5;

/**
 * An imperfect expert: the oracle, except that each step it acts at random with probability ε. Its
 * episodes end in the partial successes (another product, a wrong option) that neither the oracle
 * nor the random agent produces often, which is what a model of the reward has to learn from.
 */
export class NoisyExpert implements Agent {
  readonly name = 'noisy';
  constructor(
    private readonly oracle: Agent,
    private readonly random: Agent,
    private readonly rng: Rng,
    private readonly epsilon = NOISY_EPSILON,
  ) {}

  reset(task: Task, first: Observation): void {
    this.oracle.reset(task, first);
    this.random.reset(task, first);
  }

  act(observation: Observation): string {
    // Both are asked every step so that a plan-following oracle keeps its place.
    const expert = this.oracle.act(observation);
    const random = this.random.act(observation);
    return this.rng.chance(this.epsilon) ? random : expert;
  }
}

export interface EpisodeStep {
  action: string;
  result: StepResult;
}

export interface EpisodeRecord {
  task: Task;
  first: Observation;
  steps: EpisodeStep[];
  /** Sum of rewards. */
  score: number;
  won: boolean;
  invalidActions: number;
}

/** An agent whose choice may take a while (a policy network): what `runEpisode` plays besides the scripted ones. */
export interface AsyncAgent {
  reset(task: Task, first: Observation): void;
  act(observation: Observation): string | Promise<string>;
}

export async function runEpisode(env: Env, agent: Agent | AsyncAgent, task: Task, onStep?: (step: EpisodeStep) => void): Promise<EpisodeRecord> {
  const first = await env.reset(task);
  agent.reset(task, first);
  const record: EpisodeRecord = { task, first, steps: [], score: 0, won: false, invalidActions: 0 };
  let observation = first;
  for (;;) {
    const chosen = agent.act(observation);
    // A scripted agent's choice is taken as it is: no await, so its rollouts keep their pace.
    const action = typeof chosen === 'string' ? chosen : await chosen;
    const result = await env.step(action);
    const step = { action, result };
    record.steps.push(step);
    onStep?.(step);
    record.score += result.reward;
    if (!result.info.valid) record.invalidActions++;
    observation = result.observation;
    if (result.done) {
      record.won = result.info.won;
      return record;
    }
  }
}

/**
 * How many times an episode the env ended (the last step's `info.error`: a page that stopped
 * answering on a loaded machine, a crashed renderer) is played again before it is kept as ended by
 * the env. A greedy policy, or a scripted agent made again from the same seed, plays the same
 * episode again, so a page slow once does not change what is measured or stored.
 */
export const ENV_FAILURE_REPLAYS = 2;

/** What ended the episode where the env failed rather than the agent's actions (its last step's `info.error`), else undefined. */
export function envErrorOf(episode: { steps: readonly { result: StepResult }[] }): string | undefined {
  const error = episode.steps.at(-1)?.result.info.error;
  return typeof error === 'string' ? error : undefined;
}

/** The episode ended by the env's failure rather than the agent's actions. */
export const endedByEnv = (episode: { steps: readonly { result: StepResult }[] }): boolean => envErrorOf(episode) !== undefined;

/**
 * `task`'s episode by the agent `makeAgent` makes, played again with a new one (up to
 * ENV_FAILURE_REPLAYS times) while the env ends it; and how many times it was played again.
 */
export async function runEpisodeThroughFailures(env: Env, makeAgent: () => Agent | AsyncAgent, task: Task): Promise<{ record: EpisodeRecord; replayed: number }> {
  for (let replayed = 0; ; replayed++) {
    const record = await runEpisode(env, makeAgent(), task);
    if (!endedByEnv(record) || replayed >= ENV_FAILURE_REPLAYS) return { record, replayed };
  }
}

export interface RolloutOptions {
  spec: EnvSpec;
  policy: ScriptedPolicy;
  split: string;
  episodes: number;
  seed: number;
  envOptions?: EnvOptions;
  onEpisode?: (index: number, record: EpisodeRecord) => void;
}

export interface RolloutSummary {
  env: string;
  policy: ScriptedPolicy;
  split: string;
  episodes: number;
  successRate: number;
  /** Mean episode return × 100, as WebShop reports its score. */
  meanScore: number;
  meanSteps: number;
  invalidActionRate: number;
  stepsPerSec: number;
  digest: string;
  /** Episodes an env failure ended (the last step's `info.error`: a page that hung or crashed), when any did. */
  envErrors?: number;
  /** Episodes that ended because the page offered nothing to act on (web), when any did. */
  stalled?: number;
  /** Episodes an env failure ended that were played again (ENV_FAILURE_REPLAYS), when any were. */
  retried?: number;
}

function observationLines(o: Observation): string {
  return `${o.text}\n--actions--\n${o.actions.join('\n')}\n`;
}

/** Which tasks a seeded evaluation visits: a seeded permutation of the split, cycled if needed. */
export function episodeTasks(tasks: readonly Task[], episodes: number, seed: number): Task[] {
  if (tasks.length === 0) throw new UsageError('the split has no tasks');
  const order = new Rng(`episodes:${seed}`).shuffle(tasks);
  return Array.from({ length: episodes }, (_, i) => order[i % order.length] as Task);
}

export function createAgent(spec: EnvSpec, policy: ScriptedPolicy, rng: Rng): Agent {
  if (policy === 'oracle') return spec.createOracle();
  if (policy === 'random') return spec.createRandom(rng);
  if (policy === 'noisy') return new NoisyExpert(spec.createOracle(), spec.createRandom(rng.fork('random')), rng.fork('noise'));
  if (policy === 'shopper') {
    if (!spec.createShopper) throw new UsageError(`${spec.name} has no shopper agent; use one of: ${scriptedPoliciesOf(spec).join(', ')}`);
    return spec.createShopper(rng);
  }
  if (policy === 'hasty') {
    if (!spec.createHasty) throw new UsageError(`${spec.name} has no hasty agent; use one of: ${scriptedPoliciesOf(spec).join(', ')}`);
    return spec.createHasty();
  }
  throw new UsageError(`unknown policy "${String(policy)}"; use one of: ${SCRIPTED_POLICIES.join(', ')}`);
}

export async function rollout(options: RolloutOptions): Promise<RolloutSummary> {
  const { spec, policy, split, episodes, seed } = options;
  if (!Number.isInteger(episodes) || episodes < 1) throw new UsageError(`--episodes must be a positive integer, got ${episodes}`);
  const tasks = episodeTasks(spec.tasks(split), episodes, seed);
  const env = spec.createEnv(options.envOptions);
  const rng = new Rng(`agent:${seed}`);
  const hash = sha256.create();
  let wins = 0, score = 0, steps = 0, invalid = 0, envErrors = 0, stalled = 0, retried = 0;
  let envSeconds = 0;
  // An env in memory (shop, home) never waits on I/O: a turn of the event loop now and then lets
  // Ctrl-C and a worker's Stop be heard before the last episode.
  const breathe = breather();
  try {
    for (let i = 0; i < tasks.length; i++) {
      await breathe();
      const started = performance.now();
      // The same agent again for a replay: its randomness forked from the rollout's by the episode's place.
      const { record, replayed } = await runEpisodeThroughFailures(env, () => createAgent(spec, policy, rng.fork(i)), tasks[i] as Task);
      retried += replayed;
      envSeconds += (performance.now() - started) / 1000;
      hash.update(utf8ToBytes(`#episode ${i} ${record.task.id}\n${observationLines(record.first)}`));
      for (const { action, result } of record.steps) {
        hash.update(utf8ToBytes(`>${action}\n${result.reward} ${result.done} ${result.info.valid} ${result.info.won} ${result.info.truncated}\n${observationLines(result.observation)}`));
      }
      if (record.won) wins++;
      score += record.score;
      steps += record.steps.length;
      invalid += record.invalidActions;
      if (endedByEnv(record)) envErrors++;
      if (record.steps.at(-1)?.result.info.stalled === true) stalled++;
      options.onEpisode?.(i, record);
    }
  } finally {
    await closeEnvs([env]);
  }
  return {
    env: spec.name,
    policy,
    split,
    episodes,
    successRate: wins / episodes,
    meanScore: (100 * score) / episodes,
    meanSteps: steps / episodes,
    invalidActionRate: steps === 0 ? 0 : invalid / steps,
    stepsPerSec: steps / Math.max(envSeconds, 1e-9),
    digest: bytesToHex(hash.digest()),
    ...(envErrors > 0 ? { envErrors } : {}),
    ...(stalled > 0 ? { stalled } : {}),
    ...(retried > 0 ? { retried } : {}),
  };
}
