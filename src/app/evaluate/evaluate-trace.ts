/**
 * The Evaluate view's episode as a trace report: the same page `rollout --trace` writes
 * (jobs/trace-report.ts), made from the steps the policy player answered (each with the page as the
 * policy saw it, drawn inside the page's frame: envs/web/frame/page-picture.ts).
 */
import type { EpisodeStart } from '../../services/env-session.ts';
import type { PolicyStep } from '../../services/policy-player.ts';
import { tracedChoice, type TracedStep, type TraceReport } from '../../jobs/trace-report.ts';
import { trimOf } from '../../core/text.ts';

export interface EvaluatedEpisode {
  env: string;
  /** The policy file's name as the view shows it. */
  policy: string;
  episode: EpisodeStart;
  steps: readonly PolicyStep[];
}

/** The report of one episode played in the view, over or not. */
export function evaluateTraceReport({ env, policy, episode, steps }: EvaluatedEpisode): TraceReport {
  const traced: TracedStep[] = steps.map((step, i) => {
    // The state the policy read: the one before this step.
    const seen = i === 0 ? episode.observation : (steps[i - 1] as PolicyStep).result.observation;
    const explanation = step.result.info.explanation;
    return {
      state: seen.text,
      actions: seen.actions,
      ...(step.picture ? { picture: step.picture } : {}),
      action: step.action,
      choice: tracedChoice(step.action, step.candidates),
      reward: step.result.reward,
      valid: step.result.info.valid,
      ...(typeof explanation === 'string' ? { explanation } : {}),
    };
  });
  const last = steps.at(-1);
  const end = last?.result.done ? last : undefined;
  const envError = end?.result.info.error;
  return {
    env,
    policy,
    split: episode.split,
    notes: [],
    createdAt: new Date().toISOString(),
    episodes: [{
      index: 0,
      taskId: episode.task.id,
      instruction: episode.task.instruction,
      steps: traced,
      untracedSteps: 0,
      last: { state: (last?.result.observation ?? episode.observation).text, ...(end?.endPicture ? { picture: end.endPicture } : {}) },
      outcome: end
        ? { won: end.result.info.won, totalReward: steps.reduce((sum, s) => sum + s.result.reward, 0), truncated: end.result.info.truncated, ...(typeof envError === 'string' ? { envError } : {}) }
        : null,
    }],
  };
}

/** A file name for the report of a task (`trace-click-color-510.html`): the id's letters and digits only. */
export function traceFileName(taskId: string): string {
  return `trace-${trimOf(taskId.replace(/[^A-Za-z0-9_-]+/g, '-'), '-').slice(0, 80) || 'episode'}.html`;
}
