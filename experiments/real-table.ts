/**
 * The real-mode baseline's table (results/real-baseline/README.md) from the runs' files: each run's held-out
 * curve from its `--history` JSON and its final figure from the `rollout` JSON beside it, then the
 * mean and standard deviation over seeds per algorithm. Formatting only: every number is a run's.
 */
import type { TrainResult } from '../src/train/trainer.ts';
import { meanStd } from './paper-report.ts';

export interface RealRun {
  algo: string;
  seed: number;
  history: Pick<TrainResult, 'history'>;
  /** `rollout --json` of the saved policy on the whole held-out split. */
  final: { successRate: number; meanScore: number; episodes: number };
}

const percent = (x: number) => `${(x * 100).toFixed(1)}%`;

function curve(run: RealRun): string {
  return run.history.history
    .filter((m) => m.eval)
    .map((m) => `${Math.round(m.realTransitions / 1000)}K ${Math.round((m.eval?.successRate ?? 0) * 100)}%`)
    .join(' · ');
}

/** Markdown rows (one per run, sorted by algorithm then seed) and a line of means per algorithm. */
export function realTable(env: string, runs: readonly RealRun[]): string {
  const sorted = [...runs].sort((a, b) => a.algo.localeCompare(b.algo) || a.seed - b.seed);
  const episodes = sorted[0]?.final.episodes ?? 0;
  const lines = [
    `| run | held-out success (interval evaluations) at real transitions | final, ${episodes} held-out episodes |`,
    '|---|---|---|',
    ...sorted.map((r) => `| ${env} ${r.algo.toUpperCase()} seed ${r.seed} | ${curve(r)} | **${percent(r.final.successRate)}** (score ${r.final.meanScore.toFixed(1)}) |`),
    '',
  ];
  const algos = [...new Set(sorted.map((r) => r.algo))];
  const means = algos.map((algo) => {
    const finals = sorted.filter((r) => r.algo === algo).map((r) => r.final.successRate * 100);
    const { mean, std } = meanStd(finals);
    return `${algo.toUpperCase()} ${mean.toFixed(1)} ± ${std.toFixed(1)}% (${finals.length} seed${finals.length === 1 ? '' : 's'}, min ${Math.min(...finals).toFixed(1)}%)`;
  });
  lines.push(`Mean ± std over seeds of the final figure: ${means.join('; ')}.`);
  return lines.join('\n');
}
