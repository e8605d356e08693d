/**
 * Which tfjs backend work runs on, and why, in plain words: the one sentence every view that trains
 * or fits shows (BackendProbeNote.tsx), and the probe's figures as lines for its details.
 */
import type { BackendFigure, BackendProbe } from '../platform/backend-probe.ts';

/** How many times slower than the chosen backend a WebGPU figure must be to read as software WebGPU. */
const SOFTWARE_WEBGPU_FACTOR = 4;

const ms = (x: number): string => `${Math.round(x).toLocaleString('en-US')} ms`;

/** A duration as a person reads it: `850 ms`, `4.6 s`. */
export function duration(milliseconds: number): string {
  return milliseconds < 1000 ? ms(milliseconds) : `${(milliseconds / 1000).toFixed(1)} s`;
}

/** What one test step cost a backend in the probe: its policy update and its model pass (what was measured of them). */
const cost = (f: BackendFigure): number => (f.updateMs ?? 0) + (f.predictMs ?? 0);

const SOFTWARE = 'probably no GPU here, so WebGPU runs in software';

/** One other candidate, beside the chosen one, in a few words. */
function otherText(f: BackendFigure, chosen: BackendFigure | undefined): string {
  if (f.error !== undefined) return `${f.backend} did not start here`;
  if (f.cut) return `${f.backend} took ${duration(cost(f))} for one test batch, too slow${f.backend === 'webgpu' ? `: ${SOFTWARE}` : ''}`;
  const base = chosen ? cost(chosen) : 0;
  if (base <= 0) return `${f.backend} took ${duration(cost(f))} for one test batch`;
  const ratio = cost(f) / base;
  const software = f.backend === 'webgpu' && ratio >= SOFTWARE_WEBGPU_FACTOR ? `: ${SOFTWARE}` : '';
  return `${f.backend} took ${ratio < 10 ? ratio.toFixed(1) : Math.round(ratio)}× as long${software}`;
}

/**
 * The sentence: `Using wasm: the fastest here (webgpu took 4.6 s for one test batch, too slow: …)`.
 * `why` says how a backend that was not measured was chosen (`the one the form names`); `pending`
 * is what to say before any backend started (null: say nothing).
 */
export function backendMessage(backend: string | null, probe: BackendProbe | null | undefined, why?: string, pending: string | null = null): string | null {
  if (backend === null) return pending;
  if (!probe) return why ? `Using ${backend}: ${why}.` : `Using ${backend}.`;
  const chosen = probe.figures.find((f) => f.backend === probe.chosen);
  const others = probe.figures.filter((f) => f.backend !== probe.chosen);
  const started = probe.figures.filter((f) => f.error === undefined).length;
  const reason = started <= 1 ? 'the only backend that started here' : 'the fastest here';
  const said = others.map((f) => otherText(f, chosen));
  const swapped = backend !== probe.chosen ? ` (the probe measured ${probe.chosen} fastest)` : '';
  return `Using ${backend}: ${reason}${said.length > 0 ? ` (${said.join('; ')})` : ''}${swapped}.`;
}

/** One backend's figures as the details list them. */
export function figureLine(f: BackendFigure): string {
  if (f.error !== undefined) return `${f.backend}: did not start (${f.error})`;
  const parts = [
    ...(f.updateMs !== undefined && !f.cut ? [`one policy update ${ms(f.updateMs)}`] : []),
    ...(f.predictMs !== undefined ? [`one model prediction ${ms(f.predictMs)}`] : []),
  ];
  return `${f.backend}: ${parts.join(', ') || 'no figure'}${f.cut ? ' (stopped early: too slow)' : ''}`;
}

/** What the figure cost in the probe, for the page's tests and tooltips: ms, or why there is none. */
export const figureCost = (f: BackendFigure): string => (f.error !== undefined ? 'error' : f.cut ? 'cut' : cost(f).toFixed(1));
