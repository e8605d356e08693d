/**
 * The neural experience model in a real worker on WebGPU (SwiftShader in headless Chromium): the
 * experience service fits it from a small IndexedDB buffer seeded from the real shop, reports the
 * backend and the held-out fidelity, steps with it, predicts a batch, and finds it again in a new
 * worker (a reload). Sizes are tiny: SwiftShader is slow.
 */
import { proxy, wrap, type Remote } from 'comlink';
import { afterAll, describe, expect, it } from 'vitest';
import type { NeuralFitEvent } from '../../src/services/experience-protocol.ts';
import type { NeuralTestService } from './fixtures/neural-experience.worker.ts';

const NAME = `neural-test-${Date.now()}`;
const workers: Worker[] = [];

function neuralWorker(): Remote<NeuralTestService> {
  const worker = new Worker(new URL('./fixtures/neural-experience.worker.ts', import.meta.url), { type: 'module', name: NAME });
  workers.push(worker);
  return wrap<NeuralTestService>(worker);
}

afterAll(async () => {
  for (const w of workers.splice(0)) w.terminate();
  // A fresh worker holds no connection, so the databases can go.
  const cleaner = neuralWorker();
  await cleaner.destroy();
  for (const w of workers.splice(0)) w.terminate();
});

describe('the neural experience model in a worker (real Chromium, tfjs on WebGPU)', () => {
  it('fits from an IndexedDB buffer on webgpu, reports progress and fidelity, steps, predicts a batch, and survives a reload', async () => {
    const service = neuralWorker();
    expect(await service.init(['webgpu'])).toBe('webgpu');
    // Ten episodes: part of the fit's cost (preparing, training, validating) goes with the rows, and a
    // handful of episodes already gives a model that predicts (F1 above 0) from held-out steps.
    const seeded = await service.seed('shop', 10, 1);
    expect(seeded).toBeGreaterThan(10);
    expect(await service.bufferCounts('shop')).toEqual({ env: 'shop', real: seeded, synthetic: 0 });

    const events: NeuralFitEvent[] = [];
    // Batches of 512 rows: a step's cost on SwiftShader is mostly its own (dispatches, read-backs,
    // the host-side Adam), so a few large steps fit the same rows as many of 128 in much less time.
    const fit = await service.fitNeural({ env: 'shop', epochs: 1, batchSize: 512, validationShare: 0.3 }, proxy((e: NeuralFitEvent) => void events.push(e)));
    expect(fit.backend).toBe('webgpu');
    expect(fit.model).toMatchObject({ env: 'shop', origin: 'fitted', fittedOn: 'webgpu', saved: true });
    expect(fit.model.transitions! + fit.model.validationTransitions!).toBe(seeded);
    const validation = fit.model.history[0]?.validation;
    expect(validation).toBeTruthy();
    expect(validation!.nextStateF1).toBeGreaterThan(0);
    expect(validation!.nextStateF1).toBeLessThanOrEqual(1);
    expect(fit.model.history[0]!.loss!.line).toBeGreaterThan(0);
    // Progress crossed the worker boundary: preparing, then minibatches, each naming the backend.
    expect(events.length).toBeGreaterThan(1);
    expect(events.every((e) => e.backend === 'webgpu')).toBe(true);
    expect(events.some((e) => e.phase === 'prepare')).toBe(true);
    expect(events.some((e) => e.phase === 'train' && e.total > 0)).toBe(true);

    expect(await service.experienceInfo('shop')).toEqual({ kind: 'neural', name: 'neural', predictsOnPage: false });
    const start = await service.start('shop', 'test', 0);
    expect(start.observation.text).toMatch(/^page: search/);
    const step = await service.step('search[running shoes]');
    expect(step.experience).toBe('neural');
    expect(step.predicted.valid).toBe(true);
    expect(step.predicted.reasoning.length).toBeGreaterThan(0);
    expect(step.predicted.next.text).toMatch(/^page: /);
    expect(step.score).not.toBeNull();

    const batch = await service.predictBatch('shop', 6);
    expect(batch).toHaveLength(6);
    for (const p of batch) {
      expect(p.valid).toBe(true);
      expect(p.next.text.length).toBeGreaterThan(0);
      expect(Number.isFinite(p.reward)).toBe(true);
      expect(typeof p.done).toBe('boolean');
    }

    // A new worker over the same databases (what a reload gets) finds the model and steps with it.
    workers.shift()?.terminate();
    const reloaded = neuralWorker();
    expect(await reloaded.init(['webgpu'])).toBe('webgpu');
    const status = await reloaded.neuralStatus('shop');
    expect(status.model).toMatchObject({ env: 'shop', origin: 'fitted', fittedOn: 'webgpu', saved: true, createdAt: fit.model.createdAt });
    expect(status.model!.history).toEqual(fit.model.history);
    await reloaded.start('shop', 'test', 0);
    const again = await reloaded.step('search[running shoes]');
    expect(again.experience).toBe('neural');
    expect(again.predicted).toEqual(step.predicted);
  }, 600_000); // SwiftShader: minutes when the machine is busy
});
