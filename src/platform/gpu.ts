/**
 * What WebGPU this context offers. The trainer picks its tfjs backend from it, and the WebLLM
 * transport picks q4f32 weights when the adapter lacks `shader-f16` (SwiftShader has none).
 * Works in pages and in workers; under Node it reports "unavailable" instead of throwing.
 */
export interface GpuProbe {
  available: boolean;
  /** Why WebGPU is unavailable, in words a person can act on. */
  reason?: string;
  vendor?: string;
  architecture?: string;
  description?: string;
  features: string[];
  shaderF16: boolean;
  maxBufferSize?: number;
}

interface MinimalAdapter {
  features: Iterable<string>;
  limits: { maxBufferSize: number };
  info?: { vendor?: string; architecture?: string; description?: string };
}
interface MinimalGpu {
  requestAdapter(options?: { powerPreference?: string }): Promise<MinimalAdapter | null>;
}

export async function probeWebGpu(): Promise<GpuProbe> {
  const gpu = (globalThis.navigator as (Navigator & { gpu?: MinimalGpu }) | undefined)?.gpu;
  if (!gpu) return { available: false, reason: 'this browser does not expose WebGPU (navigator.gpu is missing)', features: [], shaderF16: false };
  let adapter: MinimalAdapter | null;
  try {
    adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' });
  } catch (e) {
    return { available: false, reason: `requesting a WebGPU adapter failed: ${(e as Error).message}`, features: [], shaderF16: false };
  }
  if (!adapter) return { available: false, reason: 'WebGPU is present but no adapter was found (GPU blocked or missing)', features: [], shaderF16: false };
  const features = [...adapter.features].sort();
  return {
    available: true,
    vendor: adapter.info?.vendor,
    architecture: adapter.info?.architecture,
    description: adapter.info?.description,
    features,
    shaderF16: features.includes('shader-f16'),
    maxBufferSize: adapter.limits.maxBufferSize,
  };
}
