import type { StepResult } from '../../core/types.ts';

interface Props {
  /** The last step's result; null before the first step. */
  last: StepResult | null;
  /** What to say while the episode goes on (each view knows what the person can do next). */
  ongoing: string;
  steps: number;
  totalReward: number;
  /** Test id of the message, so each view's tests find their own. */
  testId: string;
}

function outcome(last: StepResult): string {
  return last.info.won ? 'success' : last.info.truncated ? 'step limit reached' : 'not a success';
}

/** The episode's status line (announced to screen readers): how it ended, or what comes next. */
export function EpisodeStatus({ last, ongoing, steps, totalReward, testId }: Props) {
  const message = last?.done ? `Episode over: reward ${last.reward.toFixed(2)} (${outcome(last)}).` : ongoing;
  return (
    <p class={`status${last?.done ? (last.info.won ? ' won' : ' lost') : ''}`} role="status" aria-live="polite">
      <span data-testid={testId}>{message}</span>{' '}
      <span class="muted">Steps: {steps} · Total reward: <span data-testid="total-reward">{totalReward.toFixed(2)}</span></span>
    </p>
  );
}
