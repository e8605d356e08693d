/**
 * Which WebLLM models the Experience view offers, and custom model records. Pure functions over
 * WebLLM's `prebuiltAppConfig` (plain data, importable under Node): no DOM, no GPU, no network.
 *
 * The experience model runs beside the tfjs policy on the user's GPU, so the picker only offers
 * small chat models (≤ 2 GB of GPU memory by WebLLM's own `vram_required_MB`). Each base model comes
 * in a `q4f16_1` and a `q4f32_1` build: f16 weights need the adapter's `shader-f16` feature (WGSL
 * `enable f16;`), which many adapters lack (SwiftShader, older GPUs), so the choice follows the
 * adapter. WebLLM's `required_features` field is not a reliable guide here: several f16 records
 * (Qwen2.5, Llama-3.2) omit it yet still compile f16 shaders, hence the choice by the model id.
 */
import { ModelType, prebuiltAppConfig, type AppConfig, type ModelRecord } from '@mlc-ai/web-llm';
import { UsageError } from '../../core/errors.ts';
import { excerpt } from '../../core/text.ts';

/** The largest model the picker offers, in MB of GPU memory (WebLLM's `vram_required_MB`). */
export const SMALL_MODEL_MAX_VRAM_MB = 2048;

export type Quantization = 'q4f16_1' | 'q4f32_1';

const QUANT_IN_ID = /q4f(16|32)_1/;

export interface ModelChoice {
  /** The base model, shared by its f16 and f32 builds: `Qwen2.5-0.5B-Instruct`, `gemma-2-2b-it (1k context)`. */
  label: string;
  /** The build to load: a `model_id` of the app config. */
  modelId: string;
  quantization: Quantization;
  /** GPU memory WebLLM says the model needs, in MB. */
  vramMB: number;
  /** WebLLM marks models that also run on phones and small laptops. */
  lowResource: boolean;
  /** The other build of the same base model, when there is one (shown as an alternative). */
  alternativeModelId?: string;
  record: ModelRecord;
}

export interface SmallModelOptions {
  /** Whether the WebGPU adapter has `shader-f16` (see `gpuHasShaderF16` in webllm-client.ts). */
  shaderF16: boolean;
  maxVramMB?: number;
  /** Defaults to WebLLM's prebuilt list. */
  modelList?: readonly ModelRecord[];
}

/** The quantisation named in a model id, if it is one of the two 4-bit builds. */
export function quantizationOf(modelId: string): Quantization | null {
  const match = QUANT_IN_ID.exec(modelId);
  return match ? (`q4f${match[1]}_1` as Quantization) : null;
}

/** True for builds whose shaders use f16 (q4f16_1, q0f16, q3f16_1…), which need `shader-f16`. */
export function needsShaderF16(record: Pick<ModelRecord, 'model_id' | 'required_features'>): boolean {
  return /q\d+f16/.test(record.model_id) || (record.required_features ?? []).includes('shader-f16');
}

/** Chat models only: embedding models and vision-language models are no use as experience models. */
export function isChatModel(record: Pick<ModelRecord, 'model_type'>): boolean {
  return record.model_type === undefined || record.model_type === null || record.model_type === ModelType.LLM;
}

/** `Qwen2.5-0.5B-Instruct-q4f16_1-MLC` → `Qwen2.5-0.5B-Instruct`; a `-1k` build says so. */
export function baseLabel(modelId: string): string {
  const oneK = /-1k$/.test(modelId);
  const base = modelId
    .replace(/-1k$/, '')
    .replace(/-MLC$/, '')
    .replace(/-q\d+f(16|32)(_\d+)?$/, '');
  return oneK ? `${base} (1k context)` : base;
}

/**
 * The picker's list: one entry per small base model, in the build this adapter can run, smallest
 * first. Without `shader-f16` a base model that has only an f16 build is left out (it would not
 * compile); with it, the f16 build is preferred (less memory, faster).
 */
export function smallModels(options: SmallModelOptions): ModelChoice[] {
  const maxVramMB = options.maxVramMB ?? SMALL_MODEL_MAX_VRAM_MB;
  const list = options.modelList ?? prebuiltAppConfig.model_list;
  const families = new Map<string, { f16?: ModelRecord; f32?: ModelRecord }>();
  for (const record of list) {
    const quantization = quantizationOf(record.model_id);
    if (!quantization || !isChatModel(record)) continue;
    const key = record.model_id.replace(QUANT_IN_ID, '{q}');
    const family = families.get(key) ?? {};
    if (quantization === 'q4f16_1') family.f16 ??= record;
    else family.f32 ??= record;
    families.set(key, family);
  }
  const fits = (record: ModelRecord | undefined): record is ModelRecord =>
    record !== undefined && typeof record.vram_required_MB === 'number' && record.vram_required_MB <= maxVramMB;
  const choices: ModelChoice[] = [];
  for (const { f16, f32 } of families.values()) {
    const usable = [options.shaderF16 ? f16 : undefined, f32].filter(fits);
    const record = usable[0];
    if (!record) continue;
    const other = record === f16 ? f32 : f16;
    choices.push({
      label: baseLabel(record.model_id),
      modelId: record.model_id,
      quantization: quantizationOf(record.model_id)!,
      vramMB: record.vram_required_MB!,
      lowResource: record.low_resource_required === true,
      ...(other ? { alternativeModelId: other.model_id } : {}),
      record,
    });
  }
  return choices.sort((a, b) => a.vramMB - b.vramMB || a.label.localeCompare(b.label));
}

function absoluteHttpUrl(value: string, what: string): URL {
  const trimmed = value.trim();
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    throw new UsageError(
      `The ${what} ${excerpt(value)} is not an absolute URL: give the full address, starting with https:// (or http:// for a server on this machine).`,
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new UsageError(`The ${what} ${excerpt(value)} uses ${url.protocol}; WebLLM downloads only over https:// or http://.`);
  }
  return url;
}

/** The last meaningful path segment of a model URL (Hugging Face `…/resolve/main/` is skipped). */
function idFromModelUrl(url: URL): string {
  const segments = url.pathname.split('/').filter(Boolean);
  const resolve = segments.indexOf('resolve');
  const name = resolve > 0 ? segments[resolve - 1] : segments.at(-1);
  return name ? decodeURIComponent(name) : '';
}

/**
 * A model record for a model that is not in WebLLM's prebuilt list: compiled weights (a folder
 * with `mlc-chat-config.json`, `tensor-cache.json` and the shards, e.g. a Hugging Face repo) and
 * the compiled model library (`.wasm`). Both must be absolute http(s) URLs: WebLLM resolves
 * relative ones against the page, which breaks once the app is hosted elsewhere. The id defaults
 * to the model folder's name.
 */
export function customModel(modelUrl: string, modelLibUrl: string, id?: string): ModelRecord {
  const model = absoluteHttpUrl(modelUrl, 'model URL');
  const lib = absoluteHttpUrl(modelLibUrl, 'model library URL');
  if (!lib.pathname.endsWith('.wasm')) {
    throw new UsageError(
      `The model library URL ${excerpt(modelLibUrl)} does not end in .wasm: give the compiled model library (the …-webgpu.wasm file built for this model), not the weights folder.`,
    );
  }
  const modelId = (id ?? idFromModelUrl(model)).trim();
  if (!modelId) {
    throw new UsageError(`Cannot name a model from ${excerpt(modelUrl)}: give it an id.`);
  }
  const record: ModelRecord = { model: model.href, model_id: modelId, model_lib: lib.href, model_type: ModelType.LLM };
  if (needsShaderF16(record)) record.required_features = ['shader-f16'];
  return record;
}

/**
 * WebLLM's app config with extra records first: WebLLM takes the first record with a matching id,
 * so a custom record replaces a prebuilt one of the same id instead of being shadowed by it.
 */
export function appConfigWith(records: readonly ModelRecord[], base: AppConfig = prebuiltAppConfig): AppConfig {
  const ids = new Set(records.map((r) => r.model_id));
  return { ...base, model_list: [...records, ...base.model_list.filter((r) => !ids.has(r.model_id))] };
}

/** `944.62` → `945 MB`; `1629.75` → `1.6 GB` (decimal GB: 1 GB = 1000 MB, as download sizes are shown). */
export function formatMegabytes(mb: number): string {
  if (!Number.isFinite(mb) || mb < 0) return 'unknown size';
  if (mb < 1000) return `${Math.round(mb)} MB`;
  return `${(mb / 1000).toFixed(1)} GB`;
}

/** What a person reads beside a model: `needs about 945 MB of GPU memory`. */
export function vramNeed(record: Pick<ModelRecord, 'vram_required_MB'>): string {
  return record.vram_required_MB === undefined
    ? 'GPU memory need not stated'
    : `needs about ${formatMegabytes(record.vram_required_MB)} of GPU memory`;
}

/** The parameter count a model id states (`0.5B`, `360M`), or null. */
export function parameterCount(modelId: string): string | null {
  // `stablelm-2-zephyr-1_6b` writes 1.6B with an underscore.
  const match = /(?:^|-)(\d+(?:[._]\d+)?[BM])(?=-|$)/i.exec(modelId);
  return match ? match[1]!.replace('_', '.').toUpperCase() : null;
}
