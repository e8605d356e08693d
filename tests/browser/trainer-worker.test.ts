import { proxy, wrap, type Remote } from 'comlink';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { commands } from 'vitest/browser';
import type { TrainerEvent, TrainerService } from '../../src/services/trainer-service.ts';
import type { PolicyPlayer } from '../../src/services/policy-player.ts';

function trainerWorker() {
  const worker = new Worker(new URL('../../workers/trainer.worker.ts', import.meta.url), { type: 'module' });
  return { worker, service: wrap<TrainerService>(worker) };
}

describe('the trainer worker (real Chromium, tfjs in a Worker)', () => {
  // One WebGPU worker for both tests, as the app keeps one: most of a first WebGPU run's cost here is
  // SwiftShader compiling tfjs's shaders, and the probe's forward, backward and Adam pipelines are
  // the training run's too, so the run compiles only the few it adds.
  let gpu: ReturnType<typeof trainerWorker> | undefined;
  afterAll(() => gpu?.worker.terminate());

  it('trains on WebGPU and agrees with the cpu backend within float tolerance', async () => {
    gpu ??= trainerWorker();
    const cpu = trainerWorker();
    expect(await gpu.service.init(['webgpu'])).toBe('webgpu');
    expect(await cpu.service.init(['cpu'])).toBe('cpu');
    const [a, b] = await Promise.all([gpu.service.probeUpdates(5, 4), cpu.service.probeUpdates(5, 4)]);
    expect(a.backend).toBe('webgpu');
    expect(a.samples).toBe(b.samples);
    expect(a.samples).toBeGreaterThanOrEqual(16);
    // The updates did something: the loss moved.
    expect(Math.abs((b.policyLosses[3] as number) - (b.policyLosses[0] as number))).toBeGreaterThan(1e-3);
    const tolerance = (x: number) => 1e-3 + 1e-3 * Math.abs(x);
    a.policyLosses.forEach((l, i) => expect(Math.abs(l - (b.policyLosses[i] as number))).toBeLessThan(tolerance(l)));
    a.valueLosses.forEach((l, i) => expect(Math.abs(l - (b.valueLosses[i] as number))).toBeLessThan(tolerance(l)));
    expect(a.logits.length).toBe(b.logits.length);
    a.logits.forEach((l, i) => expect(Math.abs(l - (b.logits[i] as number))).toBeLessThan(tolerance(l)));
    cpu.worker.terminate();
  }, 300_000);

  it('runs a short real-mode training run on WebGPU, streams metrics, exports a .dgp', async () => {
    gpu ??= trainerWorker();
    const { service } = gpu;
    expect(await service.init(['webgpu'])).toBe('webgpu');
    const events: TrainerEvent['kind'][] = [];
    const result = await service.train(
      {
        env: 'shop',
        algo: 'grpo',
        // Small: what is pinned is the run in a worker on WebGPU and its export, not learning. Each
        // iteration's cost goes with its lockstep rounds and its samples (SwiftShader), so one or two
        // iterations of 8 episodes on 8 envs show the same as more.
        realBudget: 150,
        seed: 2,
        finalEvalEpisodes: 10,
        algoConfig: { tasksPerIteration: 2, groupSize: 4, parallelEnvs: 8, minibatchSize: 64, epochs: 1 },
      },
      proxy((event: TrainerEvent) => void events.push(event.kind)),
    );
    expect(result.backend).toBe('webgpu');
    expect(result.realTransitions).toBeGreaterThan(0);
    expect(result.realTransitions).toBeLessThanOrEqual(150);
    expect(result.eval?.episodes).toBe(10);
    expect(events).toContain('iteration');
    // Events travel on the callback's own channel, so the last may land just after train() resolves.
    await vi.waitFor(() => expect(events[events.length - 1]).toBe('done'));
    const bytes = await service.exportPolicy();
    expect(new TextDecoder().decode(bytes.subarray(0, 4))).toBe('DGPF');
    const header = await (service as unknown as { player: Remote<PolicyPlayer> }).player.inspectPolicy(bytes);
    expect(header.backend).toBe('webgpu');
    expect(header.algorithm).toBe('grpo');
    // The same file under the Node CLI (wasm) takes the same greedy actions on the same tasks.
    let binary = '';
    for (const byte of bytes) binary += String.fromCharCode(byte);
    const cli = await commands.cliRolloutPolicy(btoa(binary), ['--env', 'shop', '--episodes', '10', '--seed', '2']);
    expect(cli.backend).toBe('wasm');
    expect(cli.episodes).toBe(10);
    expect(cli.actionsDigest).toBe(result.eval?.actionsDigest);
  }, 480_000); // WebGPU here is SwiftShader on the CPU: minutes when the machine is busy
});
