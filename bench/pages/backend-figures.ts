// Runs inside headless Chromium for `npm run bench -- browser`: one fresh worker per backend
// variant (tfjs keeps one backend per realm, and the wasm flags are read once).
import type { FigureOptions } from '../backend-figures.ts';

interface Variant {
  probe?: boolean;
  backend: 'webgpu' | 'wasm' | 'cpu';
  simd?: boolean;
  threads?: boolean;
  options?: FigureOptions;
}

function measure(variant: Variant): Promise<unknown> {
  const worker = new Worker(new URL('./backend-figures.worker.ts', import.meta.url), { type: 'module' });
  return new Promise((resolve) => {
    worker.onmessage = (event) => {
      worker.terminate();
      resolve(event.data);
    };
    worker.onerror = (event) => {
      worker.terminate();
      resolve({ ok: false, error: event.message || 'the worker failed to start' });
    };
    worker.postMessage(variant);
  });
}

(window as unknown as { measure: typeof measure }).measure = measure;
(window as unknown as { benchReady: boolean }).benchReady = true;
