/**
 * `auto` picks the backend by measurement: the fastest one measured wins whatever the platform's
 * order says, a backend far slower than the best so far is cut after its warm-up, and one that
 * cannot start is reported, not chosen.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { probeBackends, type ProbeWorkload } from '../../../src/platform/backend-probe.ts';
import { chooseBackend } from '../../../src/jobs/probe-workload.ts';
import { tf, useBackend } from '../../../src/platform/tf.ts';
import { TrainerService } from '../../../src/services/trainer-service.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A workload whose cost depends on the backend it runs on, and that counts its runs. */
function pacedWorkload(msByBackend: Record<string, number>) {
  const runs: Record<string, number> = {};
  const workload: ProbeWorkload = {
    async prepare() {
      const backend = tf.getBackend();
      const run = async () => {
        runs[backend] = (runs[backend] ?? 0) + 1;
        await sleep(msByBackend[backend] ?? 0);
      };
      return { update: run, predict: run, dispose: () => {} };
    },
  };
  return { workload, runs };
}

describe('probeBackends', () => {
  afterAll(async () => {
    await useBackend(['wasm']);
  });

  it('chooses the fastest measured backend, not the first in order, and leaves it current', async () => {
    const { workload } = pacedWorkload({ wasm: 60, cpu: 5 });
    const probe = await probeBackends(['wasm', 'cpu'], { workload, repeats: 2, slowFactor: 100 });
    expect(probe.chosen).toBe('cpu');
    expect(tf.getBackend()).toBe('cpu');
    const [wasm, cpu] = probe.figures;
    expect(wasm?.backend).toBe('wasm');
    expect(wasm?.updateMs).toBeGreaterThan(cpu?.updateMs as number);
    expect(wasm?.predictMs).toBeGreaterThanOrEqual(50);
  });

  it('cuts a backend after its warm-up when it is already far slower than the best so far', async () => {
    const { workload, runs } = pacedWorkload({ wasm: 5, cpu: 120 });
    const probe = await probeBackends(['wasm', 'cpu'], { workload, repeats: 3, slowFactor: 4 });
    expect(probe.chosen).toBe('wasm');
    // wasm: warm-up + 3 for each part; cpu: its first (predict) warm-up only.
    expect(runs).toEqual({ wasm: 8, cpu: 1 });
    expect(probe.figures[1]).toMatchObject({ backend: 'cpu', cut: true });
  });

  it('reports a backend that cannot start here, and chooses among the others', async () => {
    const { workload } = pacedWorkload({});
    const probe = await probeBackends(['webgpu', 'cpu'], { workload, repeats: 1 });
    expect(probe.chosen).toBe('cpu');
    expect(probe.figures[0]?.backend).toBe('webgpu');
    expect(probe.figures[0]?.error).toMatch(/webgpu/);
  });

  it('throws, naming the reasons, when nothing starts', async () => {
    const { workload } = pacedWorkload({});
    await expect(probeBackends(['webgpu'], { workload })).rejects.toThrow(/no TensorFlow.js backend could start/);
  });
});

describe('the real shapes', () => {
  it('measure the policy update and the neural pass on wasm and cpu; wasm wins here', async () => {
    const probe = await chooseBackend(['wasm', 'cpu'], { repeats: 1 });
    expect(probe.chosen).toBe('wasm');
    const wasm = probe.figures.find((f) => f.backend === 'wasm');
    expect(wasm?.updateMs).toBeGreaterThan(0);
    expect(wasm?.predictMs).toBeGreaterThan(0);
  }, 60_000);

  it('are what a trainer worker measures when the backend is auto, once, and not when it is named', async () => {
    const service = new TrainerService({ probeCandidates: ['cpu', 'wasm'] });
    expect(await service.init()).toBe('wasm');
    const probe = service.backendProbe();
    expect(probe?.figures.map((f) => f.backend)).toEqual(['wasm', 'cpu']);
    expect(probe?.figures[1]).toMatchObject({ backend: 'cpu', cut: true });
    await service.init();
    expect(service.backendProbe()).toBe(probe);
    expect(await service.init(['cpu'])).toBe('cpu');
    expect(service.backendProbe()).toBeNull();
    await useBackend(['wasm']);
  }, 60_000);
});
