/**
 * How `auto` chose a backend, in one line: each candidate's probe figures (one policy update and
 * one neural-model pass on the real shapes, ms), the chosen one first. Shown where the backend is.
 */
import type { BackendFigure, BackendProbe } from '../platform/backend-probe.ts';

function figureText(f: BackendFigure): string {
  if (f.error !== undefined) return `${f.backend}: did not start`;
  const ms = (x: number | undefined) => (x === undefined ? '—' : `${Math.round(x).toLocaleString()} ms`);
  return `${f.backend}: update ${ms(f.updateMs)}, predict ${ms(f.predictMs)}${f.cut ? ' (stopped early: too slow)' : ''}`;
}

/** What the figure cost in the probe, for the page's tests and tooltips: ms, or why there is none. */
const costOf = (f: BackendFigure): string => (f.error !== undefined ? 'error' : f.cut ? 'cut' : ((f.updateMs ?? 0) + (f.predictMs ?? 0)).toFixed(1));

export function BackendProbeNote({ probe }: { probe: BackendProbe | null | undefined }) {
  if (!probe) return null;
  const ordered = [...probe.figures].sort((a, b) => Number(b.backend === probe.chosen) - Number(a.backend === probe.chosen));
  return (
    <span class="muted" data-testid="backend-probe" title={`the probe took ${Math.round(probe.probeMs).toLocaleString()} ms`}>
      {' '}(fastest measured:{' '}
      {ordered.map((f, i) => (
        <span key={f.backend} data-testid="probe-figure" data-backend={f.backend} data-cost={costOf(f)}>
          {i > 0 ? ' · ' : ''}
          {figureText(f)}
        </span>
      ))}
      )
    </span>
  );
}
