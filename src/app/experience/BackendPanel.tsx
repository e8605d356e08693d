import {
  active, addCustomModel, applyBackend, applying, backendKind, busy, cacheState, cancelLoad, chooseKind, chooseModel, customId,
  customLibUrl, customModelUrl, deleteSelectedFromCache, deleting, httpApiKey, httpBaseUrl, httpModel, kExamples, loadProgress,
  loadState, modelListState, models, selectedModel, selectedOption, setK, shaderF16, type BackendKind,
} from './experience-store.ts';

// Every string from WebLLM (progress text, model ids, URLs) is a JSX text child: shown as text, never as HTML.

const KINDS: { kind: BackendKind; label: string; help: string }[] = [
  { kind: 'knn', label: 'kNN', help: 'copies what happened after the most similar real transition in the buffer; no download, the floor every model must beat' },
  { kind: 'http', label: 'HTTP endpoint', help: 'any OpenAI-compatible server: llama.cpp, Ollama, vLLM, SGLang' },
  { kind: 'webllm', label: 'WebLLM', help: 'a small model downloaded once and run in this browser on the GPU' },
];

const CACHE_TEXT: Record<string, string> = {
  checking: 'Checking the browser cache…',
  cached: 'In the browser cache: loads without the network.',
  'not-cached': 'Not in the browser cache: loading downloads it (once).',
  unavailable: 'The browser cache cannot be read here (it needs https or localhost).',
};

function KnnFields() {
  return (
    <div class="row">
      <button type="button" class="primary" disabled={applying.value || busy.value || active.value.kind === 'knn'} onClick={() => void applyBackend()}>
        Use kNN
      </button>
    </div>
  );
}

function HttpFields() {
  return (
    <form onSubmit={(e) => { e.preventDefault(); void applyBackend(); }}>
      <fieldset class="plain" disabled={applying.value || busy.value}>
        <legend class="visually-hidden">Endpoint</legend>
        <div class="form-grid">
          <label for="http-base-url">Base URL</label>
          <input id="http-base-url" type="text" inputMode="url" value={httpBaseUrl.value} spellcheck={false} placeholder="http://127.0.0.1:8080"
            onInput={(e) => { httpBaseUrl.value = (e.target as HTMLInputElement).value; }} />
          <label for="http-model">Model name</label>
          <input id="http-model" type="text" value={httpModel.value} spellcheck={false} placeholder="qwen2.5:0.5b"
            onInput={(e) => { httpModel.value = (e.target as HTMLInputElement).value; }} />
          <label for="http-api-key">API key (optional)</label>
          <input id="http-api-key" type="password" autoComplete="off" value={httpApiKey.value}
            onInput={(e) => { httpApiKey.value = (e.target as HTMLInputElement).value; }} />
        </div>
      </fieldset>
      <p class="muted small">
        The page calls the server directly, so it must allow this page's origin (CORS): llama-server does by default; start Ollama with
        {' '}<code>OLLAMA_ORIGINS</code>, vLLM with <code>--allowed-origins</code>. The key stays in this tab's memory.
      </p>
      <div class="row">
        <button type="submit" class="primary" disabled={applying.value || busy.value || httpModel.value.trim() === ''}>Use this endpoint</button>
      </div>
    </form>
  );
}

function LoadProgressBar() {
  const progress = loadProgress.value;
  const state = loadState.value;
  if (!progress || state === 'idle') return null;
  const percent = Math.round(progress.progress * 100);
  return (
    <div class="load-progress">
      <label class="progress-label" for="load-progress" data-testid="load-status" aria-live="polite">
        {state === 'loading' ? `${percent}% · ${progress.text}` : state === 'ready' ? progress.text : state === 'stopped' ? 'Loading stopped.' : 'Loading failed (see the message above).'}
      </label>
      <progress id="load-progress" max={1} value={progress.progress} />
    </div>
  );
}

function WebLlmFields() {
  const listState = modelListState.value;
  const loading = loadState.value === 'loading';
  const option = selectedOption.value;
  if (listState === 'listing' && models.value.length === 0) return <p class="muted" role="status">Reading WebLLM's model list and probing the GPU…</p>;
  return (
    <>
      {shaderF16.value === null && (
        <p class="warning small">This browser offers no WebGPU, so WebLLM cannot run here. Use a current Chrome or Edge, or choose kNN or an HTTP endpoint.</p>
      )}
      {shaderF16.value === false && (
        <p class="muted small">This GPU lacks the WebGPU feature shader-f16, so the list offers the q4f32 builds (a little more memory, same answers).</p>
      )}
      <div class="row">
        <label for="webllm-model">Model</label>
        <select id="webllm-model" value={selectedModel.value} disabled={loading || models.value.length === 0}
          onChange={(e) => chooseModel((e.target as HTMLSelectElement).value)}>
          {models.value.map((m) => <option key={m.modelId} value={m.modelId}>{m.label}</option>)}
        </select>
      </div>
      {option && (
        <p class="small">
          <code>{option.modelId}</code> {option.detail}.{' '}
          <span data-testid="cache-status">{cacheState.value ? CACHE_TEXT[cacheState.value] : ''}</span>
        </p>
      )}
      <div class="row">
        <button type="button" class="primary" disabled={loading || busy.value || !selectedModel.value} onClick={() => void applyBackend()}>Load model</button>
        <button type="button" disabled={!loading} onClick={cancelLoad}>Cancel loading</button>
        <button type="button" disabled={loading || deleting.value || !selectedModel.value || cacheState.value === 'unavailable' || cacheState.value === 'checking'}
          onClick={() => void deleteSelectedFromCache()}>
          {deleting.value ? 'Deleting…' : 'Delete from cache'}
        </button>
      </div>
      <LoadProgressBar />
      <details class="advanced">
        <summary>Custom model (compiled for WebLLM)</summary>
        <form onSubmit={(e) => { e.preventDefault(); void addCustomModel(); }}>
          <fieldset class="plain" disabled={loading}>
            <legend class="visually-hidden">Custom model</legend>
            <div class="form-grid">
              <label for="custom-model-url">Weights folder URL</label>
              <input id="custom-model-url" type="text" inputMode="url" spellcheck={false} value={customModelUrl.value} placeholder="https://huggingface.co/…/resolve/main/"
                onInput={(e) => { customModelUrl.value = (e.target as HTMLInputElement).value; }} />
              <label for="custom-lib-url">Model library URL (.wasm)</label>
              <input id="custom-lib-url" type="text" inputMode="url" spellcheck={false} value={customLibUrl.value} placeholder="https://…/model-webgpu.wasm"
                onInput={(e) => { customLibUrl.value = (e.target as HTMLInputElement).value; }} />
              <label for="custom-id">Model id (optional)</label>
              <input id="custom-id" type="text" spellcheck={false} value={customId.value}
                onInput={(e) => { customId.value = (e.target as HTMLInputElement).value; }} />
            </div>
            <p class="muted small">Both addresses must be absolute (https://…); the model is added to the list above.</p>
            <div class="row">
              <button type="submit" disabled={customModelUrl.value.trim() === '' || customLibUrl.value.trim() === ''}>Add custom model</button>
            </div>
          </fieldset>
        </form>
      </details>
    </>
  );
}

export function BackendPanel() {
  const kind = backendKind.value;
  return (
    <section class="panel" aria-labelledby="backend-title">
      <h2 id="backend-title">Experience model</h2>
      <p class="small">In use: <strong data-testid="active-backend">{active.value.name}</strong></p>
      <fieldset class="backend-kinds">
        <legend>Backend</legend>
        {KINDS.map((k) => (
          <label key={k.kind} class="backend-kind">
            <input type="radio" name="experience-backend" value={k.kind} checked={kind === k.kind} onChange={() => chooseKind(k.kind)} />
            {' '}<strong>{k.label}</strong> <span class="muted small">{k.help}</span>
          </label>
        ))}
      </fieldset>
      {kind === 'knn' && <KnnFields />}
      {kind === 'http' && <HttpFields />}
      {kind === 'webllm' && <WebLlmFields />}
      <div class="row">
        <label for="k-examples">Retrieved real transitions per step (k)</label>
        <input id="k-examples" type="number" min={1} max={8} step={1} value={Number.isNaN(kExamples.value) ? '' : kExamples.value} disabled={busy.value}
          onInput={(e) => void setK((e.target as HTMLInputElement).valueAsNumber)} />
      </div>
    </section>
  );
}
