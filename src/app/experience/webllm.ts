/**
 * Everything of WebLLM the Experience view uses, in one module the view imports lazily
 * (`import('./webllm.ts')`): @mlc-ai/web-llm is several megabytes and must not load with the app's
 * first page. WebLLM's page-side engine has to live on the page (it drives its own worker,
 * workers/llm.worker.ts), so the model that predicts for the WebLLM backend runs here too; the
 * experience worker only retrieves, steps the real environment and scores.
 */
import type { AppConfig, ModelRecord } from '@mlc-ai/web-llm';
import { ChatTransportError } from '../../experience/llm/chat.ts';
import { LlmExperienceModel } from '../../experience/llm/llm-model.ts';
import {
  WebLlmChatClient, deleteCachedModel, gpuHasShaderF16, modelCacheStatus, terminateWebLlmWorker, type LoadProgress, type ModelCacheStatus,
} from '../../experience/llm/webllm-client.ts';
import { appConfigWith, customModel, formatMegabytes, parameterCount, smallModels, vramNeed } from '../../experience/llm/webllm-models.ts';
import { failurePrediction, type ExperienceInput, type ExperiencePrediction, type ExperienceStats } from '../../experience/types.ts';

/** A model the picker offers, as plain data the view can keep in a signal. */
export interface ModelOption {
  modelId: string;
  /** `Qwen2.5-0.5B-Instruct · 0.5B · q4f32_1 · 945 MB`. */
  label: string;
  /** `needs about 945 MB of GPU memory`, with WebLLM's low-resource mark. */
  detail: string;
  custom: boolean;
}

export interface ModelList {
  /** Whether the adapter has shader-f16; null when this browser offers no WebGPU. */
  shaderF16: boolean | null;
  models: ModelOption[];
}

function configFor(custom: readonly ModelRecord[]): AppConfig {
  return appConfigWith(custom);
}

/** The small chat models this GPU can run (f16 builds only with shader-f16), custom ones first. */
export async function listModels(custom: readonly ModelRecord[]): Promise<ModelList> {
  const shaderF16 = await gpuHasShaderF16();
  const choices = smallModels({ shaderF16: shaderF16 === true });
  const customOptions: ModelOption[] = custom.map((r) => ({
    modelId: r.model_id,
    label: `${r.model_id} (custom)`,
    detail: `from ${r.model}; ${vramNeed(r)}`,
    custom: true,
  }));
  const prebuilt: ModelOption[] = choices.map((c) => ({
    modelId: c.modelId,
    label: [c.label, parameterCount(c.modelId), c.quantization, formatMegabytes(c.vramMB)].filter(Boolean).join(' · '),
    detail: `${vramNeed(c.record)}${c.lowResource ? '; runs on small laptops and phones' : ''}`,
    custom: false,
  }));
  return { shaderF16, models: [...customOptions, ...prebuilt] };
}

/** A custom model record from its absolute URLs; throws a UsageError that says what is wrong. */
export function makeCustomModel(modelUrl: string, libUrl: string, id: string): ModelRecord {
  return customModel(modelUrl, libUrl, id.trim() === '' ? undefined : id);
}

export function cacheStatus(modelId: string, custom: readonly ModelRecord[]): Promise<ModelCacheStatus> {
  return modelCacheStatus(modelId, configFor(custom));
}

export function deleteFromCache(modelId: string, custom: readonly ModelRecord[]): Promise<void> {
  return deleteCachedModel(modelId, configFor(custom));
}

/** A loaded WebLLM model as the Experience view uses it. */
export interface PageModel {
  /** `llm:webllm/<model id>`. */
  readonly name: string;
  readonly modelId: string;
  /** One teacher-forced prediction; rejects with a ChatTransportError when WebLLM cannot answer. */
  predict(input: ExperienceInput): Promise<ExperiencePrediction>;
  /** Stop the request in flight (the prediction rejects with `aborted`). */
  stop(): void;
  stats(): ExperienceStats;
  /** Hear that the worker crashed (the model is then gone). */
  onCrash(listener: (error: ChatTransportError) => void): () => void;
  /** Free the model's GPU memory. */
  unload(): Promise<void>;
}

let worker: Worker | null = null;

function llmWorker(): Worker {
  // Vite finds the worker only in this literal form.
  worker ??= new Worker(new URL('../../../workers/llm.worker.ts', import.meta.url), { type: 'module', name: 'llm' });
  return worker;
}

/** End the WebLLM worker (after a crash, so the next load starts a fresh one). */
export function endWorker(): void {
  if (worker) terminateWebLlmWorker(worker);
  worker = null;
}

/**
 * Load a model in the WebLLM worker, reporting progress. A worker that crashed is replaced, so a
 * later load can succeed; any other failure leaves the worker for the next attempt.
 */
export async function loadModel(options: {
  modelId: string;
  custom: readonly ModelRecord[];
  onProgress: (progress: LoadProgress) => void;
  signal: AbortSignal;
}): Promise<PageModel> {
  let chat: WebLlmChatClient;
  try {
    chat = await WebLlmChatClient.load({
      worker: llmWorker(),
      modelId: options.modelId,
      appConfig: configFor(options.custom),
      onProgress: options.onProgress,
      signal: options.signal,
    });
  } catch (error) {
    if (error instanceof ChatTransportError && error.kind === 'worker-crashed') endWorker();
    throw error;
  }
  let controller = new AbortController();
  // Teacher forcing restarts every step from the real state: each request stands alone.
  const model = new LlmExperienceModel({ client: chat, framing: 'single' });
  return {
    name: model.name,
    modelId: options.modelId,
    async predict(input) {
      controller = new AbortController();
      const [prediction] = await model.predict([input], { signal: controller.signal });
      return prediction ?? failurePrediction('the model returned no prediction');
    },
    stop: () => controller.abort(),
    stats: () => model.stats(),
    onCrash: (listener) => chat.onCrash(listener),
    unload: () => chat.unload(),
  };
}

export type { LoadProgress, ModelCacheStatus, ModelRecord };
