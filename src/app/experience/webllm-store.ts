/**
 * The WebLLM experience model of the Experience view: the model list, the browser cache, and the
 * model loaded on the page (WebLLM's engine must live there), from a lazily imported chunk.
 */
import { computed, signal } from '@preact/signals';
import { errorMessage } from '../../core/errors.ts';
import { active, busy, command, error, note, useExperience } from './experience-state.ts';
import type { LoadProgress, ModelCacheStatus, ModelOption, ModelRecord, PageModel } from './webllm.ts';

export type LoadState = 'idle' | 'loading' | 'ready' | 'stopped' | 'error';

export const modelListState = signal<'idle' | 'listing' | 'listed' | 'error'>('idle');
/** Whether the adapter has shader-f16; null without WebGPU; undefined until probed. */
export const shaderF16 = signal<boolean | null | undefined>(undefined);
export const models = signal<ModelOption[]>([]);
export const selectedModel = signal('');
export const cacheState = signal<ModelCacheStatus | 'checking' | null>(null);
export const customModelUrl = signal('');
export const customLibUrl = signal('');
export const customId = signal('');
export const customRecords = signal<ModelRecord[]>([]);
export const loadState = signal<LoadState>('idle');
export const loadProgress = signal<LoadProgress | null>(null);
export const deleting = signal(false);

export const selectedOption = computed(() => models.value.find((m) => m.modelId === selectedModel.value) ?? null);

let pageModel: PageModel | null = null;
let stopPageModelCrashWatch: () => void = () => {};
let loadController: AbortController | null = null;
let webllm: Promise<typeof import('./webllm.ts')> | null = null;

function webllmModule(): Promise<typeof import('./webllm.ts')> {
  webllm ??= import('./webllm.ts').catch((e: unknown) => {
    webllm = null;
    throw e;
  });
  return webllm;
}

/** The model loaded on the page, if any (the episode's steps ask it). */
export function currentPageModel(): PageModel | null {
  return pageModel;
}

export async function releasePageModel(): Promise<void> {
  const model = pageModel;
  pageModel = null;
  stopPageModelCrashWatch();
  stopPageModelCrashWatch = () => {};
  if (model) await model.unload().catch(() => undefined);
  if (loadState.value === 'ready') loadState.value = 'idle';
}

export async function listWebLlmModels(): Promise<void> {
  modelListState.value = 'listing';
  const ok = await command(async () => {
    const mod = await webllmModule();
    const list = await mod.listModels(customRecords.value);
    shaderF16.value = list.shaderF16;
    models.value = list.models;
    if (!list.models.some((m) => m.modelId === selectedModel.value)) selectedModel.value = list.models[0]?.modelId ?? '';
  });
  modelListState.value = ok ? 'listed' : 'error';
  if (ok) await refreshCacheState();
}

export function chooseModel(modelId: string): void {
  selectedModel.value = modelId;
  void refreshCacheState();
}

export async function refreshCacheState(): Promise<void> {
  const modelId = selectedModel.value;
  if (!modelId) {
    cacheState.value = null;
    return;
  }
  cacheState.value = 'checking';
  try {
    const status = await (await webllmModule()).cacheStatus(modelId, customRecords.value);
    if (selectedModel.value === modelId) cacheState.value = status;
  } catch {
    if (selectedModel.value === modelId) cacheState.value = 'unavailable';
  }
}

export async function deleteSelectedFromCache(): Promise<void> {
  const modelId = selectedModel.value;
  if (!modelId || deleting.value) return;
  deleting.value = true;
  error.value = null;
  if (await command(async () => (await webllmModule()).deleteFromCache(modelId, customRecords.value))) {
    note.value = `Deleted ${modelId} from the browser cache${pageModel?.modelId === modelId ? ' (the loaded copy stays on the GPU until another backend is chosen)' : ''}.`;
  }
  deleting.value = false;
  await refreshCacheState();
}

export async function addCustomModel(): Promise<void> {
  error.value = null;
  await command(async () => {
    const record = (await webllmModule()).makeCustomModel(customModelUrl.value, customLibUrl.value, customId.value);
    customRecords.value = [record, ...customRecords.value.filter((r) => r.model_id !== record.model_id)];
    selectedModel.value = record.model_id;
    customModelUrl.value = '';
    customLibUrl.value = '';
    customId.value = '';
  });
  await listWebLlmModels();
}

/** Download (or read from the cache) and load the picked model; stoppable; errors say what to do. */
export async function loadWebLlm(): Promise<void> {
  const modelId = selectedModel.value;
  if (!modelId || loadState.value === 'loading' || busy.value) return;
  const controller = new AbortController();
  loadController = controller;
  loadState.value = 'loading';
  loadProgress.value = { progress: 0, text: `Preparing to load ${modelId}…` };
  error.value = null;
  note.value = null;
  // A model already in use ends when the worker is given another to load: steps fall back to the
  // default (the neural model, or kNN where none is fitted) meanwhile.
  if (active.value.kind === 'webllm') {
    await releasePageModel();
    await command(() => useExperience({ kind: 'neural' }));
  }
  try {
    const mod = await webllmModule();
    const model = await mod.loadModel({
      modelId,
      custom: customRecords.value,
      signal: controller.signal,
      onProgress: (progress) => {
        if (loadController === controller) loadProgress.value = progress;
      },
    });
    if (controller.signal.aborted) {
      await model.unload().catch(() => undefined);
      throw new Error('stopped');
    }
    pageModel = model;
    stopPageModelCrashWatch = model.onCrash((crash) => void pageModelCrashed(crash.message));
    await useExperience({ kind: 'webllm', settings: { modelId } });
    loadState.value = 'ready';
    loadProgress.value = { progress: 1, text: `${modelId} is loaded and ready.` };
    void refreshCacheState();
  } catch (e) {
    if (controller.signal.aborted) {
      loadState.value = 'stopped';
      note.value = `Loading ${modelId} was stopped. Files already downloaded stay in the browser cache.`;
    } else {
      loadState.value = 'error';
      error.value = errorMessage(e);
    }
    await releasePageModel();
    void refreshCacheState();
  } finally {
    if (loadController === controller) loadController = null;
  }
}

export function cancelLoad(): void {
  loadController?.abort();
}

async function pageModelCrashed(message: string): Promise<void> {
  error.value = `${message} The neural experience model (kNN where none is fitted) is in use until a model is loaded again.`;
  loadState.value = 'error';
  pageModel = null;
  stopPageModelCrashWatch();
  (await webllmModule()).endWorker();
  await command(() => useExperience({ kind: 'neural' }));
}

