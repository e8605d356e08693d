import { ModelType, prebuiltAppConfig, type ModelRecord } from '@mlc-ai/web-llm';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/core/errors.ts';
import {
  SMALL_MODEL_MAX_VRAM_MB,
  appConfigWith,
  baseLabel,
  customModel,
  formatMegabytes,
  needsShaderF16,
  parameterCount,
  quantizationOf,
  smallModels,
  vramNeed,
} from '../../../src/experience/llm/webllm-models.ts';

const prebuilt = new Map(prebuiltAppConfig.model_list.map((r) => [r.model_id, r]));

describe('smallModels (WebLLM prebuilt list, this npm version)', () => {
  for (const shaderF16 of [true, false]) {
    describe(`with shader-f16 ${shaderF16 ? 'available' : 'missing'}`, () => {
      const list = smallModels({ shaderF16 });

      it('offers only prebuilt 4-bit chat models that fit in 2 GB of GPU memory, smallest first', () => {
        expect(list.length).toBeGreaterThan(5);
        for (const choice of list) {
          const record = prebuilt.get(choice.modelId);
          expect(record, choice.modelId).toBeDefined();
          expect(choice.record).toBe(record);
          expect(record!.vram_required_MB).toBeLessThanOrEqual(SMALL_MODEL_MAX_VRAM_MB);
          expect(choice.vramMB).toBe(record!.vram_required_MB);
          expect([undefined, ModelType.LLM]).toContain(record!.model_type);
          expect(choice.modelId).toMatch(/-q4f(16|32)_1-/);
        }
        expect(list.map((c) => c.vramMB)).toEqual([...list.map((c) => c.vramMB)].sort((a, b) => a - b));
        expect(list.some((c) => /embed|vision/i.test(c.modelId))).toBe(false);
        expect(new Set(list.map((c) => c.modelId)).size).toBe(list.length);
      });

      it(`picks the ${shaderF16 ? 'q4f16_1' : 'q4f32_1'} build of each base model`, () => {
        const qwen = list.find((c) => c.label === 'Qwen2.5-0.5B-Instruct')!;
        const llama = list.find((c) => c.label === 'Llama-3.2-1B-Instruct')!;
        if (shaderF16) {
          expect(qwen.modelId).toBe('Qwen2.5-0.5B-Instruct-q4f16_1-MLC');
          expect(qwen.alternativeModelId).toBe('Qwen2.5-0.5B-Instruct-q4f32_1-MLC');
          expect(llama.modelId).toBe('Llama-3.2-1B-Instruct-q4f16_1-MLC');
          // Builds that exist only in f16 are offered when the adapter can run them.
          expect(list.map((c) => c.modelId)).toContain('gemma3-1b-it-q4f16_1-MLC');
          // Every base model that has an f16 build under the cap is offered in f16.
          for (const choice of list) {
            if (choice.quantization === 'q4f32_1') expect(prebuilt.get(choice.modelId.replace('q4f32_1', 'q4f16_1'))).toBeUndefined();
          }
        } else {
          expect(qwen.modelId).toBe('Qwen2.5-0.5B-Instruct-q4f32_1-MLC');
          expect(llama.modelId).toBe('Llama-3.2-1B-Instruct-q4f32_1-MLC');
          for (const choice of list) {
            expect(choice.quantization).toBe('q4f32_1');
            expect(needsShaderF16(choice.record)).toBe(false);
          }
          // An f16-only model would not compile without shader-f16, so it is left out.
          expect(list.map((c) => c.modelId)).not.toContain('gemma3-1b-it-q4f16_1-MLC');
        }
      });
    });
  }

  it('follows the shader-f16 flag and the memory cap on a list of its own', () => {
    const rec = (model_id: string, vram: number, extra: Partial<ModelRecord> = {}): ModelRecord => ({
      model: `https://example.org/${model_id}`,
      model_id,
      model_lib: `https://example.org/${model_id}.wasm`,
      vram_required_MB: vram,
      ...extra,
    });
    const modelList = [
      rec('Tiny-q4f16_1-MLC', 500),
      rec('Tiny-q4f32_1-MLC', 700),
      rec('Edge-q4f16_1-MLC', 1900),
      rec('Edge-q4f32_1-MLC', 2300),
      rec('Huge-q4f16_1-MLC', 4000),
      rec('Tiny-q0f32-MLC', 900),
      rec('Embed-q4f32_1-MLC', 100, { model_type: ModelType.embedding }),
      rec('Vision-q4f16_1-MLC', 100, { model_type: ModelType.VLM }),
    ];
    expect(smallModels({ shaderF16: true, modelList }).map((c) => c.modelId)).toEqual(['Tiny-q4f16_1-MLC', 'Edge-q4f16_1-MLC']);
    // Without shader-f16 the edge model's f32 build is over the cap: it is not offered at all.
    expect(smallModels({ shaderF16: false, modelList }).map((c) => c.modelId)).toEqual(['Tiny-q4f32_1-MLC']);
    expect(smallModels({ shaderF16: false, modelList, maxVramMB: 2500 }).map((c) => c.modelId)).toEqual(['Tiny-q4f32_1-MLC', 'Edge-q4f32_1-MLC']);
  });
});

describe('model id helpers', () => {
  it('reads the quantisation, the f16 need, the base label and the parameter count from an id', () => {
    expect(quantizationOf('Qwen2.5-0.5B-Instruct-q4f16_1-MLC')).toBe('q4f16_1');
    expect(quantizationOf('gemma-2-2b-it-q4f32_1-MLC-1k')).toBe('q4f32_1');
    expect(quantizationOf('Qwen2.5-0.5B-Instruct-q0f16-MLC')).toBeNull();
    expect(needsShaderF16({ model_id: 'Qwen2.5-0.5B-Instruct-q4f16_1-MLC' })).toBe(true);
    expect(needsShaderF16({ model_id: 'Qwen2.5-0.5B-Instruct-q0f16-MLC' })).toBe(true);
    expect(needsShaderF16({ model_id: 'Qwen2.5-0.5B-Instruct-q4f32_1-MLC' })).toBe(false);
    expect(needsShaderF16({ model_id: 'custom', required_features: ['shader-f16'] })).toBe(true);
    expect(baseLabel('gemma-2-2b-it-q4f16_1-MLC-1k')).toBe('gemma-2-2b-it (1k context)');
    expect(baseLabel('SmolLM2-360M-Instruct-q4f32_1-MLC')).toBe('SmolLM2-360M-Instruct');
    expect(parameterCount('Qwen2.5-0.5B-Instruct-q4f16_1-MLC')).toBe('0.5B');
    expect(parameterCount('SmolLM2-360M-Instruct-q4f32_1-MLC')).toBe('360M');
    expect(parameterCount('stablelm-2-zephyr-1_6b-q4f32_1-MLC')).toBe('1.6B');
    expect(parameterCount('phi-1_5-q4f32_1-MLC')).toBeNull();
  });

  it('formats sizes and the GPU memory need for people', () => {
    expect(formatMegabytes(944.62)).toBe('945 MB');
    expect(formatMegabytes(1629.75)).toBe('1.6 GB');
    expect(formatMegabytes(Number.NaN)).toBe('unknown size');
    expect(vramNeed({ vram_required_MB: 1060.2 })).toBe('needs about 1.1 GB of GPU memory');
    expect(vramNeed({})).toBe('GPU memory need not stated');
  });
});

describe('customModel', () => {
  const lib = 'https://example.org/libs/MyModel-q4f32_1-webgpu.wasm';

  it('builds a record from absolute URLs, naming it after the model folder', () => {
    expect(customModel('https://huggingface.co/me/MyModel-q4f32_1-MLC', lib)).toEqual({
      model: 'https://huggingface.co/me/MyModel-q4f32_1-MLC',
      model_id: 'MyModel-q4f32_1-MLC',
      model_lib: lib,
      model_type: ModelType.LLM,
    });
    expect(customModel('https://huggingface.co/me/MyModel-q4f16_1-MLC/resolve/main/', lib).model_id).toBe('MyModel-q4f16_1-MLC');
    expect(customModel('https://huggingface.co/me/MyModel-q4f16_1-MLC', lib).required_features).toEqual(['shader-f16']);
    expect(customModel('http://localhost:8000/models/mine/', lib, ' my-model ').model_id).toBe('my-model');
  });

  it('rejects relative, malformed and non-http URLs with a UsageError that says what to give', () => {
    expect(() => customModel('models/MyModel', lib)).toThrow(UsageError);
    expect(() => customModel('models/MyModel', lib)).toThrow(/model URL "models\/MyModel" is not an absolute URL: give the full address, starting with https:\/\//);
    expect(() => customModel('/models/MyModel', lib)).toThrow(/not an absolute URL/);
    expect(() => customModel('https://example.org/m', 'lib.wasm')).toThrow(/model library URL "lib.wasm" is not an absolute URL/);
    expect(() => customModel('https://exa mple.org/m', lib)).toThrow(/not an absolute URL/);
    expect(() => customModel('file:///home/me/model', lib)).toThrow(/uses file:; WebLLM downloads only over https:\/\/ or http:\/\//);
    expect(() => customModel('https://example.org/m', 'https://example.org/m/')).toThrow(/does not end in .wasm/);
    expect(() => customModel('https://example.org/', lib)).toThrow(/give it an id/);
  });

  it('goes first in the app config, replacing a prebuilt record of the same id', () => {
    const mine = customModel('https://example.org/Qwen2.5-0.5B-Instruct-q4f32_1-MLC', lib);
    const config = appConfigWith([mine]);
    expect(config.model_list[0]).toBe(mine);
    expect(config.model_list.filter((r) => r.model_id === mine.model_id)).toEqual([mine]);
    expect(config.model_list).toHaveLength(prebuiltAppConfig.model_list.length);
  });
});
