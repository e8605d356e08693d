/**
 * The one backend message of every view that trains or fits: which tfjs backend the work runs on
 * and why, in a sentence (`Using wasm: the fastest here (webgpu took 4.6 s for one test batch, too
 * slow: …)`), with the probe's figures behind a <details>.
 */
import type { BackendProbe } from '../platform/backend-probe.ts';
import { backendMessage, duration, figureCost, figureLine } from './backend-message.ts';

export interface BackendNoteProps {
  /** The backend in use; null before anything started one. */
  backend: string | null;
  /** How `auto` chose it; null or absent when the backend was named (say how in `why`). */
  probe: BackendProbe | null | undefined;
  /** How a backend that was not measured was chosen, e.g. `the one the form names`. */
  why?: string;
  /** What to say before a backend started (nothing when absent). */
  pending?: string;
  /** The sentence's test id (default `backend-note`). */
  testId?: string;
}

export function BackendNote({ backend, probe, why, pending, testId = 'backend-note' }: BackendNoteProps) {
  const text = backendMessage(backend, probe, why, pending ?? null);
  if (text === null) return null;
  const ordered = probe ? [...probe.figures].sort((a, b) => Number(b.backend === probe.chosen) - Number(a.backend === probe.chosen)) : [];
  return (
    <div class="backend-note small">
      <span data-testid={testId}>{text}</span>
      {probe && backend !== null && (
        <details class="backend-details">
          <summary>How it was chosen</summary>
          <p class="muted">
            A short test ({duration(probe.probeMs)}, once, when the worker started) ran one policy update and one experience-model
            prediction on each backend this browser offers, and kept the fastest:
          </p>
          <ul data-testid="backend-probe">
            {ordered.map((f) => (
              <li key={f.backend} data-testid="probe-figure" data-backend={f.backend} data-cost={figureCost(f)}>{figureLine(f)}</li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}
