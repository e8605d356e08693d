/**
 * Which tfjs backend is fastest here, measured rather than assumed. The platform's order (webgpu,
 * then wasm, then cpu) says what may load, not what runs fastest: on a machine whose WebGPU is
 * software (SwiftShader, as headless Chromium has without a GPU) the neural model's first epoch
 * took minutes on webgpu and seconds on wasm. `probeBackends` runs a caller's workload on every
 * backend that starts and keeps the fastest; jobs/probe-workload.ts gives it the real shapes.
 */
import { errorMessage } from '../core/errors.ts';
import { BackendUnavailableError, useBackend, type BackendName } from './tf.ts';

/** One backend's figures: medians over the probe's repeats, or why it could not be measured. */
export interface BackendFigure {
  backend: BackendName;
  /** One policy update (256 samples), ms. */
  updateMs?: number;
  /** One line-head pass over a batch-of-32 prediction's rows, ms. */
  predictMs?: number;
  /** The backend did not start, or its workload failed. */
  error?: string;
  /** Its warm-up alone took longer than the probe allows: measured once, not repeated. */
  cut?: boolean;
}

export interface BackendProbe {
  chosen: BackendName;
  figures: BackendFigure[];
  /** Wall time of the whole probe, ms. */
  probeMs: number;
}

/** What the probe runs on a backend once it is current; `dispose` frees what `prepare` made. */
export interface ProbeWorkload {
  prepare(): Promise<{ update(): Promise<void>; predict(): Promise<void>; dispose(): void }>;
}

export interface ProbeOptions {
  workload: ProbeWorkload;
  /** Timed runs of each part after its warm-up (default 3). */
  repeats?: number;
  /** A warm-up longer than this (ms) ends that backend's probe (default 5,000)… */
  slowMs?: number;
  /** …as does one longer than this many times the fastest backend's figure so far (default 4). */
  slowFactor?: number;
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
}

/** Warm-up, then `repeats` timed runs (the median), unless the warm-up alone passes `limitMs`. */
async function timed(run: () => Promise<void>, repeats: number, limitMs: number): Promise<{ ms: number; cut: boolean }> {
  const warm = performance.now();
  await run();
  const warmMs = performance.now() - warm;
  if (warmMs > limitMs) return { ms: warmMs, cut: true };
  const times: number[] = [];
  for (let r = 0; r < repeats; r++) {
    const start = performance.now();
    await run();
    times.push(performance.now() - start);
  }
  return { ms: median(times), cut: false };
}

/** A backend's cost in the probe: the update and the prediction, as a run spends its time on both. */
export const probeCost = (f: BackendFigure): number => (f.error !== undefined ? Number.POSITIVE_INFINITY : (f.updateMs ?? 0) + (f.predictMs ?? 0));

/**
 * Measure every candidate that starts, switch to the fastest and return the figures. Throws
 * BackendUnavailableError (as `useBackend` does) when no candidate could be measured.
 */
export async function probeBackends(candidates: readonly BackendName[], options: ProbeOptions): Promise<BackendProbe> {
  const started = performance.now();
  const { workload } = options;
  const repeats = options.repeats ?? 3;
  const slowMs = options.slowMs ?? 5000;
  const slowFactor = options.slowFactor ?? 4;
  const figures: BackendFigure[] = [];
  // The fastest fully measured backend so far: one whose warm-up is already far slower stops there.
  let best: BackendFigure | null = null;
  for (const backend of candidates) {
    try {
      await useBackend([backend]);
    } catch (error) {
      // useBackend's reason for this one backend (`webgpu: …`), not its whole message.
      figures.push({ backend, error: error instanceof BackendUnavailableError ? error.reasons.join('; ') : errorMessage(error) });
      continue;
    }
    let prepared: Awaited<ReturnType<ProbeWorkload['prepare']>> | undefined;
    try {
      prepared = await workload.prepare();
      // The cheap part first, so that a slow backend is cut before its expensive part.
      const predict = await timed(prepared.predict, repeats, Math.min(slowMs, best ? slowFactor * (best.predictMs as number) : Number.POSITIVE_INFINITY));
      if (predict.cut) {
        figures.push({ backend, predictMs: round(predict.ms), cut: true });
        continue;
      }
      const update = await timed(prepared.update, repeats, Math.min(slowMs, best ? slowFactor * (best.updateMs as number) : Number.POSITIVE_INFINITY));
      const figure: BackendFigure = { backend, updateMs: round(update.ms), predictMs: round(predict.ms), ...(update.cut ? { cut: true } : {}) };
      figures.push(figure);
      if (!update.cut && (best === null || probeCost(figure) < probeCost(best))) best = figure;
    } catch (error) {
      figures.push({ backend, error: errorMessage(error) });
    } finally {
      prepared?.dispose();
    }
  }
  // A cut backend is slower than any fully measured one: its single run already passed the limit.
  const ranked = figures.filter((f) => f.error === undefined).sort((a, b) => Number(a.cut ?? false) - Number(b.cut ?? false) || probeCost(a) - probeCost(b));
  const fastest = ranked[0];
  // Nothing started, or every workload failed: each candidate's reason, as useBackend words them.
  if (!fastest) throw new BackendUnavailableError(candidates, figures.map((f) => (f.error?.startsWith(`${f.backend}:`) ? f.error : `${f.backend}: ${f.error}`)));
  await useBackend([fastest.backend]);
  return { chosen: fastest.backend, figures, probeMs: round(performance.now() - started) };
}

const round = (x: number): number => Number(x.toFixed(1));
