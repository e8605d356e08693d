/**
 * `evaluateFidelity`: the one entry point that measures an experience model on held-out real
 * transitions, for the CLI's `experience eval`. The held-out transitions are played fresh in the
 * real environment on its held-out split (the buffer's way, by scripted agents), so none of them
 * is in the buffer the model retrieves from; each is predicted from its real state (teacher
 * forcing) with `k` examples retrieved from the buffer's real transitions.
 */
import { matchKey } from '../core/actions.ts';
import { UsageError } from '../core/errors.ts';
import type { EnvSpec } from '../envs/spec.ts';
import { heldoutTransitions, measureFidelity, type FidelityReport } from '../experience/fidelity.ts';
import { promptTokenStats } from '../experience/tokens.ts';
import type { ExperienceModel } from '../experience/types.ts';
import type { ReplayBuffer } from '../replay/retrieval.ts';
import { parseMix } from '../replay/seed.ts';
import { offlineRealTransitions, type OfflineDataSource } from './offline-data.ts';

/** What the eval spec checked (eval-spec.ts), defaults filled in. */
export interface FidelitySettings {
  heldout: number;
  mix: string;
  seed: number;
  k: number;
  /** Score only the held-out steps that take this action (e.g. click[Buy Now]). */
  onlyAction?: string | undefined;
}

export interface FidelityResult {
  report: FidelityReport;
  /** Real transitions of the env the model retrieved from. */
  offlineTransitions: number;
  /** Held-out episodes played, and their transitions before `onlyAction` kept some. */
  episodes: number;
  played: number;
  /** Transitions scored. */
  scored: number;
  /** The prompt each prediction would cost an LLM (llama-3 tokens, single framing). */
  promptTokens: { mean: number; p95: number; max: number };
}

export async function evaluateFidelity(
  spec: EnvSpec,
  settings: FidelitySettings,
  options: {
    model: ExperienceModel;
    buffer: ReplayBuffer;
    source: OfflineDataSource;
    /** Before the first prediction: what will be measured. */
    onStart?: (plan: { scored: number; episodes: number; offlineTransitions: number }) => void;
    onProgress?: (done: number, total: number) => void;
  },
): Promise<FidelityResult> {
  const { model, buffer } = options;
  const mix = parseMix(settings.mix);
  const offlineTransitions = await offlineRealTransitions(buffer.store, spec.name, options.source);
  const played = await heldoutTransitions(spec, settings.heldout, mix, settings.seed);
  const only = settings.onlyAction;
  const heldout = only === undefined ? played.heldout : played.heldout.filter((h) => matchKey(h.transition.action) === matchKey(only));
  if (heldout.length === 0) throw new UsageError(`none of the ${played.heldout.length} held-out transitions is "${only}"; play more with --heldout or another --mix`);
  options.onStart?.({ scored: heldout.length, episodes: played.episodes, offlineTransitions });
  const { report, inputs } = await measureFidelity({ model, buffer, k: settings.k, heldout, ...(options.onProgress ? { onProgress: options.onProgress } : {}) });
  return { report, offlineTransitions, episodes: played.episodes, played: played.heldout.length, scored: heldout.length, promptTokens: promptTokenStats(inputs) };
}
