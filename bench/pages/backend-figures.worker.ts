// A dedicated worker, as the app's trainer is: starts one tfjs backend (wasm with or without SIMD
// and threads, as asked) and measures it for `npm run bench -- browser`.
import { getThreadsCount } from '@tensorflow/tfjs-backend-wasm';
import { tf, useBackend, type BackendName } from '../../src/platform/tf.ts';
import { chooseBackend } from '../../src/jobs/probe-workload.ts';
import { platformBackends } from '../../src/platform/tf.ts';
import { measureBackendFigures, type FigureOptions } from '../backend-figures.ts';

interface Request {
  /** Run the app's backend probe (what `auto` does in the trainer worker) instead of measuring one backend. */
  probe?: boolean;
  backend: BackendName;
  simd?: boolean;
  threads?: boolean;
  options?: FigureOptions;
}

self.onmessage = async (event: MessageEvent<Request>) => {
  const { probe, backend, simd, threads, options } = event.data;
  try {
    if (probe) {
      postMessage({ ok: true, probe: await chooseBackend(platformBackends()) });
      return;
    }
    // Flags read when the wasm backend starts: which of its three binaries it loads.
    if (simd === false) tf.env().set('WASM_HAS_SIMD_SUPPORT', false);
    if (threads === false) tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
    await useBackend([backend]);
    const wasm = backend === 'wasm' ? { simd: tf.env().getBool('WASM_HAS_SIMD_SUPPORT'), threads: getThreadsCount() } : null;
    const figures = await measureBackendFigures(options);
    postMessage({ ok: true, figures: { ...figures, ...(wasm ? { wasm } : {}), crossOriginIsolated: self.crossOriginIsolated } });
  } catch (error) {
    postMessage({ ok: false, error: error instanceof Error ? error.message : String(error) });
  }
};
