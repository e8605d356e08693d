/**
 * The one backend message of the views that train: which backend, and why, in plain words (never
 * the probe's raw figures), with the figures kept for its details.
 */
import { describe, expect, it } from 'vitest';
import { backendMessage, figureCost, figureLine } from '../../../src/app/backend-message.ts';
import type { BackendProbe } from '../../../src/platform/backend-probe.ts';

// What headless Chromium without a GPU measured in issue 59: software WebGPU cut after one prediction.
const NO_GPU: BackendProbe = {
  chosen: 'wasm',
  probeMs: 6200,
  figures: [
    { backend: 'wasm', updateMs: 180, predictMs: 40 },
    { backend: 'webgpu', predictMs: 4612, cut: true },
    { backend: 'cpu', updateMs: 600, predictMs: 100 },
  ],
};

describe('the backend message', () => {
  it('says which backend runs and why, and names a software WebGPU as the likely reason it is slow', () => {
    expect(backendMessage('wasm', NO_GPU)).toBe(
      'Using wasm: the fastest here (webgpu took 4.6 s for one test batch, too slow: probably no GPU here, so WebGPU runs in software; cpu took 3.2× as long).',
    );
  });

  it('says when the backend was named, not measured, and what to say before any started', () => {
    expect(backendMessage('wasm', null, 'chosen under Advanced')).toBe('Using wasm: chosen under Advanced.');
    expect(backendMessage('cpu', undefined)).toBe('Using cpu.');
    expect(backendMessage(null, null, undefined, 'Chosen when a run starts.')).toBe('Chosen when a run starts.');
    expect(backendMessage(null, null)).toBeNull();
  });

  it('says when only one backend started, and why the others did not', () => {
    const probe: BackendProbe = { chosen: 'wasm', probeMs: 900, figures: [{ backend: 'webgpu', error: 'webgpu: no adapter' }, { backend: 'wasm', updateMs: 200, predictMs: 50 }] };
    expect(backendMessage('wasm', probe)).toBe('Using wasm: the only backend that started here (webgpu did not start here).');
  });

  it('keeps a real GPU that was measured faster as the plain fastest', () => {
    const probe: BackendProbe = { chosen: 'webgpu', probeMs: 3000, figures: [{ backend: 'wasm', updateMs: 300, predictMs: 60 }, { backend: 'webgpu', updateMs: 30, predictMs: 10 }] };
    expect(backendMessage('webgpu', probe)).toBe('Using webgpu: the fastest here (wasm took 9.0× as long).');
  });

  it('lists every figure in words for the details, with the costs the tests read', () => {
    expect(NO_GPU.figures.map(figureLine)).toEqual([
      'wasm: one policy update 180 ms, one model prediction 40 ms',
      'webgpu: one model prediction 4,612 ms (stopped early: too slow)',
      'cpu: one policy update 600 ms, one model prediction 100 ms',
    ]);
    expect(NO_GPU.figures.map(figureCost)).toEqual(['220.0', 'cut', '700.0']);
    expect(figureCost({ backend: 'webgpu', error: 'x' })).toBe('error');
  });
});
