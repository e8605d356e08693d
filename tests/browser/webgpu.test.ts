import { wrap } from 'comlink';
import { describe, expect, it } from 'vitest';
import { probeWebGpu } from '../../src/platform/gpu.ts';

// Headless Chromium started with --enable-unsafe-webgpu exposes a real (SwiftShader) adapter.
describe('WebGPU in the system Chromium', () => {
  it('gives the page an adapter', async () => {
    const probe = await probeWebGpu();
    expect(probe.reason).toBeUndefined();
    expect(probe.available).toBe(true);
    expect(probe.maxBufferSize).toBeGreaterThan(0);
  });

  it('gives a worker an adapter too, and can run a compute shader there', async () => {
    const worker = new Worker(new URL('./gpu-probe.worker.ts', import.meta.url), { type: 'module' });
    const remote = wrap<{ probeWebGpu: typeof probeWebGpu }>(worker);
    const probe = await remote.probeWebGpu();
    expect(probe.available).toBe(true);
    expect(probe.shaderF16).toBe(probe.features.includes('shader-f16'));
    worker.terminate();
  });

  it('computes on the GPU: doubling a buffer in a compute shader', async () => {
    const gpu = (navigator as Navigator & { gpu: GPU }).gpu;
    const adapter = await gpu.requestAdapter();
    const device = await adapter!.requestDevice();
    const input = new Float32Array([1, 2, 3, 4]);
    const buffer = device.createBuffer({ size: input.byteLength, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST });
    device.queue.writeBuffer(buffer, 0, input);
    const module = device.createShaderModule({
      code: '@group(0) @binding(0) var<storage, read_write> v: array<f32>;\n@compute @workgroup_size(4) fn main(@builtin(global_invocation_id) id: vec3u) { v[id.x] = v[id.x] * 2.0; }',
    });
    const pipeline = device.createComputePipeline({ layout: 'auto', compute: { module, entryPoint: 'main' } });
    const bind = device.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries: [{ binding: 0, resource: { buffer } }] });
    const read = device.createBuffer({ size: input.byteLength, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
    const encoder = device.createCommandEncoder();
    const pass = encoder.beginComputePass();
    pass.setPipeline(pipeline);
    pass.setBindGroup(0, bind);
    pass.dispatchWorkgroups(1);
    pass.end();
    encoder.copyBufferToBuffer(buffer, 0, read, 0, input.byteLength);
    device.queue.submit([encoder.finish()]);
    await read.mapAsync(GPUMapMode.READ);
    expect([...new Float32Array(read.getMappedRange())]).toEqual([2, 4, 6, 8]);
    device.destroy();
  });
});
