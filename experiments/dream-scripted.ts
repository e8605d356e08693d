/**
 * `npm run experiment -- dream-scripted --env <shop|home> --model FILE.dgx --buffer FILE.jsonl [--agent oracle] [--tasks 40] [--split train] [--seed 1] [--k 3] [--train-max-steps N] [--trace]`
 *
 * Free-running fidelity: a scripted agent (the oracle by default) plays each task once in the real
 * environment and once inside the experience model (the synthetic env `train --mode dream` trains
 * in), and the two episodes are compared step by step. Teacher-forced figures (`experience eval`)
 * give the model the real state at every step; in a dream it builds on its own predictions, and one
 * wrong room (the task's object missing from it) makes every later step of the plan fail. If the
 * oracle cannot succeed inside the model, no policy trained there learns to.
 *
 * For each task: whether each side was won, its length, and the first step whose predicted
 * observation differs from the real one (the action, both texts). The oracle's plan does not read
 * its observations, so both sides take the same actions until one episode ends.
 */
import type { Task } from '../src/core/types.ts';
import { Rng } from '../src/core/rng.ts';
import { createAgent, runEpisode, type EpisodeRecord, type ScriptedPolicy } from '../src/envs/episode.ts';
import type { EnvSpec } from '../src/envs/spec.ts';
import { envBuilder, type CurriculumVarianceOptions } from './curriculum-variance.ts';

export interface DreamScriptedOptions {
  agent: ScriptedPolicy;
  dream: CurriculumVarianceOptions['dream'];
  tasks: number;
  split: string;
  seed: number;
  trainMaxSteps?: number | undefined;
  backend: string;
  /** Keep every step of both sides in each row (`trace`), to read where the model's episode went. */
  trace?: boolean;
}

export interface TracedStep {
  action: string;
  observation: string;
  reward: number;
  done: boolean;
}

export interface Divergence {
  /** 0-based step whose next observation first differs. */
  step: number;
  action: string;
  real: string;
  model: string;
}

export interface DreamScriptedRow {
  task: string;
  instruction: string;
  real: { won: boolean; steps: number; score: number };
  model: { won: boolean; steps: number; reward: number };
  /** Null when every step both sides took predicted the real observation exactly. */
  divergence: Divergence | null;
  trace?: { real: TracedStep[]; model: TracedStep[] };
}

function traced(episode: EpisodeRecord): TracedStep[] {
  return episode.steps.map((s) => ({ action: s.action, observation: s.result.observation.text, reward: Number(s.result.reward.toFixed(3)), done: s.result.done }));
}

export interface DreamScriptedReport {
  env: string;
  agent: ScriptedPolicy;
  tasks: number;
  successRate: { real: number; model: number };
  /**
   * Mean episode score (total reward) on each side: what PPO and GRPO optimise. A model's reward is
   * a probability rounded to hundredths: a success it is sure of may score 0.99, and counts as won
   * inside it by the one definition of success (experience/success.ts: the model's own call, else a
   * reward within 0.05 of 1).
   */
  meanScore: { real: number; model: number };
  /** Tasks won in the real env and inside the model, of those won in the real env. */
  wonBothOfRealWins: number;
  /** Mean step (0-based) of the first divergence over the tasks that diverged, and how many did. */
  firstDivergence: { meanStep: number | null; tasks: number };
  rows: DreamScriptedRow[];
}

function firstDivergence(real: EpisodeRecord, model: EpisodeRecord): Divergence | null {
  const n = Math.min(real.steps.length, model.steps.length);
  for (let i = 0; i < n; i++) {
    const r = real.steps[i] as EpisodeRecord['steps'][number];
    const m = model.steps[i] as EpisodeRecord['steps'][number];
    if (r.action !== m.action) return { step: i, action: `${r.action} | ${m.action}`, real: r.result.observation.text, model: m.result.observation.text };
    if (r.result.observation.text !== m.result.observation.text || r.result.done !== m.result.done) {
      return { step: i, action: r.action, real: r.result.observation.text, model: m.result.observation.text };
    }
  }
  return null;
}

export async function dreamScripted(spec: EnvSpec, options: DreamScriptedOptions): Promise<DreamScriptedReport> {
  const chosen: Task[] = new Rng(`dream-scripted:${spec.name}:${options.split}:${options.seed}`).sample(spec.tasks(options.split), options.tasks);
  const trainer = envBuilder(spec, { ...options, episodes: chosen.length });
  trainer.policy.dispose();
  const [dreamEnv] = trainer.trainingEnvs(1, 'dream');
  const [realEnv] = trainer.trainingEnvs(1, 'real');
  if (!dreamEnv || !realEnv) throw new Error('the trainer built no env');
  const rng = new Rng(`dream-scripted:agent:${options.seed}`);
  const rows: DreamScriptedRow[] = [];
  try {
    for (const [i, task] of chosen.entries()) {
      // The same agent stream on both sides, so a random or noisy agent takes the same choices where it can.
      const real = await runEpisode(realEnv, createAgent(spec, options.agent, rng.fork(i)), task);
      const model = await runEpisode(dreamEnv, createAgent(spec, options.agent, rng.fork(i)), task);
      rows.push({
        task: task.id,
        instruction: task.instruction,
        real: { won: real.won, steps: real.steps.length, score: Number(real.score.toFixed(3)) },
        model: { won: model.won, steps: model.steps.length, reward: Number(model.score.toFixed(3)) },
        divergence: firstDivergence(real, model),
        ...(options.trace === true ? { trace: { real: traced(real), model: traced(model) } } : {}),
      });
    }
  } finally {
    // The real envs the trainer opened (a web env's pages): closed as its own runs close them.
    await trainer.closeTrainingEnvs();
  }
  const share = (test: (r: DreamScriptedRow) => boolean, of: readonly DreamScriptedRow[] = rows): number => (of.length === 0 ? 0 : of.filter(test).length / of.length);
  const diverged = rows.filter((r) => r.divergence !== null);
  return {
    env: spec.name,
    agent: options.agent,
    tasks: rows.length,
    successRate: { real: share((r) => r.real.won), model: share((r) => r.model.won) },
    meanScore: { real: mean(rows.map((r) => r.real.score)), model: mean(rows.map((r) => r.model.reward)) },
    wonBothOfRealWins: share((r) => r.model.won, rows.filter((r) => r.real.won)),
    firstDivergence: { meanStep: diverged.length === 0 ? null : diverged.reduce((a, r) => a + (r.divergence as Divergence).step, 0) / diverged.length, tasks: diverged.length },
    rows,
  };
}

function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : Number((values.reduce((a, b) => a + b, 0) / values.length).toFixed(3));
}
