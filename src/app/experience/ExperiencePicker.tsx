import { checkPretrainedShipped, fineTunePretrainedModel, pretrainedShipped } from '../pretrained.ts';
import { PRETRAINED_ENV } from '../../jobs/pretrained-files.ts';
import { Fragment } from 'preact';
import { useEffect } from 'preact/hooks';
import { BackendNote } from '../BackendProbeNote.tsx';
import type { NeuralFitEvent, NeuralModelInfo } from '../../services/experience-protocol.ts';
import { formatNumber, LiveChart, type ChartSeries } from '../train/LiveChart.tsx';
import { MAX_K, MIN_K } from '../../jobs/experience-models/retrieval-k.ts';
import { active, activeKnown, busy, experienceKind, experienceModels, selectedEnv, type ExperienceKind } from './experience-state.ts';
import { applyExperience, applying, chooseKind, fitFromHint, httpApiKey, httpEndpoint, httpModel, kExamples, otherSettings, setK } from './experience-store.ts';
import { chartEpochs, exportNeural, fitEnv, fitEpochs, fitNeural, fitProgress, fitState, forgetNeural, importNeuralFile, isFitting, MAX_EPOCHS, neural, neuralFileBusy, neuralFileError, stopFit, tfBackend } from './neural-store.ts';
import { addCustomModel, cacheState, cancelLoad, chooseModel, customId, customLibUrl, customModelUrl, deleteSelectedFromCache, deleting, loadProgress, loadState, modelListState, models, selectedModel, selectedOption, shaderF16 } from './webllm-store.ts';

// Every string from WebLLM (progress text, model ids, URLs) or from a model file is a JSX text child: shown as text, never as HTML.

/** The models with a panel of their own below; any other kind the registry adds gets its settings as plain fields (OtherFields). */
const OWN_PANELS: readonly ExperienceKind[] = ['neural', 'knn', 'http', 'webllm'];

const CACHE_TEXT: Record<string, string> = {
  checking: 'Checking the browser cache…',
  cached: 'In the browser cache: loads without the network.',
  'not-cached': 'Not in the browser cache: loading downloads it (once).',
  unavailable: 'The browser cache cannot be read here (it needs https or localhost).',
};

function KnnFields() {
  return (
    <div class="row">
      <button type="button" class="primary" disabled={applying.value || busy.value || active.value.kind === 'knn'} onClick={() => void applyExperience()}>
        Use kNN
      </button>
    </div>
  );
}

// Mid-tone colours that read on both the light and the dark background (as the Train view's).
const FIDELITY_SERIES: ChartSeries[] = [
  { label: 'next-state F1', color: '#3b82f6', axis: 'left', points: true },
  { label: 'action-set F1', color: '#f08c00', axis: 'left', points: true },
  { label: 'reward accuracy', color: '#2f9e44', axis: 'left', points: true },
  { label: 'done accuracy', color: '#ae3ec9', axis: 'left', points: true },
];

const int = (n: number) => n.toLocaleString('en-US');
const score = (n: number) => n.toFixed(2);

function when(iso: string): string {
  const time = Date.parse(iso);
  return Number.isFinite(time) ? new Date(time).toLocaleString() : iso;
}

function ModelSummary({ info }: { info: NeuralModelInfo }) {
  const last = [...info.history].reverse().find((e) => e.validation)?.validation ?? null;
  return (
    <>
      <p class="small" data-testid="neural-model">
        {info.origin === 'fitted' ? (info.fineTuned ? 'Fine-tuned from the pretrained web model' : 'Fitted') : <>Imported{info.fileName ? <> from <code>{info.fileName}</code></> : null}</>} {when(info.createdAt)} on <strong>{info.fittedOn}</strong>
        {info.transitions !== null && <> · {int(info.transitions)} real transitions</>}
        {info.validationTransitions ? <> ({int(info.validationTransitions)} held out)</> : null}
        {info.history.length > 0 && <> · {info.history.length} epoch{info.history.length === 1 ? '' : 's'}</>}
        {info.stopped && <> (stopped after {info.stopped.after} of {info.stopped.of})</>}
        {' '}· {int(Math.round(info.bytes / 1024))} KB{info.saved ? ', saved in this browser' : ''}.
      </p>
      {last && (
        <p class="small muted" data-testid="neural-validation">
          Held-out episodes after the last epoch: next-state F1 {score(last.nextStateF1)} · action-set F1 {score(last.actionSetF1)} · reward accuracy {score(last.rewardAccuracy)} · done accuracy {score(last.doneAccuracy)}
        </p>
      )}
      {info.problem && <p class="warning small" data-testid="neural-problem">{info.problem}</p>}
    </>
  );
}

function progressText(p: NeuralFitEvent | null): string {
  if (!p) return 'Starting tfjs and reading the buffer…';
  if (p.phase === 'prepare') return `Preparing: retrieved examples for ${int(p.done)} / ${int(p.total)} real transitions`;
  if (p.phase === 'validate') return `Epoch ${p.epoch} / ${p.epochs} · checking held-out episodes ${int(p.done)} / ${int(p.total)}`;
  const loss = p.loss ? ` · loss ${formatNumber(p.loss.line)} (lines), ${formatNumber(p.loss.action)} (actions), ${formatNumber(p.loss.transition)} (reward, done)${p.loss.reasoning !== undefined ? `, ${formatNumber(p.loss.reasoning)} (reasoning)` : ''}` : '';
  return `Epoch ${p.epoch} / ${p.epochs} · minibatch ${int(p.done)} / ${int(p.total)}${loss}`;
}

function FitProgress() {
  const state = fitState.value;
  const p = fitProgress.value;
  const elsewhere = fitEnv.value !== selectedEnv.value;
  if (state === 'idle' || (elsewhere && !isFitting.value)) return null;
  const said = state === 'fitting' ? progressText(p) : state === 'stopping' ? 'Stopping…' : state === 'done' ? 'Fitted.' : state === 'stopped' ? 'Stopped: the model that was there is kept.' : 'The fit failed (see the message above).';
  const text = elsewhere ? `Fitting the ${fitEnv.value ?? ''} model · ${said}` : said;
  // One bar: preparing is the first unit, then one unit per epoch (training, then its check).
  const max = (p?.epochs ?? 1) + 1;
  const part = (done: number, total: number) => done / Math.max(1, total);
  const value = state === 'done' ? max : !p ? 0 : p.phase === 'prepare' ? part(p.done, p.total)
    : p.phase === 'train' ? p.epoch + 0.9 * part(p.done, p.total) : p.epoch + 0.9 + 0.1 * part(p.done, p.total);
  return (
    <div class="load-progress">
      <label class="progress-label" for="fit-progress" data-testid="fit-status" aria-live="polite">{text}</label>
      <progress id="fit-progress" max={max} value={Math.min(max, value)} />
    </div>
  );
}

function FidelityChart() {
  const epochs = chartEpochs.value;
  const fitting = isFitting.value;
  if (epochs.length === 0 && !fitting) return null;
  const withScores = epochs.filter((e) => e.validation);
  const data: [number[], ...(number | null)[][]] = [
    epochs.map((e) => e.epoch),
    epochs.map((e) => e.validation?.nextStateF1 ?? null),
    epochs.map((e) => e.validation?.actionSetF1 ?? null),
    epochs.map((e) => e.validation?.rewardAccuracy ?? null),
    epochs.map((e) => e.validation?.doneAccuracy ?? null),
  ];
  return (
    <div data-testid="neural-chart">
      <LiveChart title="Fidelity on held-out episodes, per epoch" xLabel="epoch" xIntegers data={data} series={FIDELITY_SERIES} left={{ label: 'score', range: [0, 1] }} height={200} />
      {epochs.length > 0 && withScores.length === 0 && (
        <p class="muted small">No episode was held out (the buffer is small), so there is no fidelity to chart: seed more episodes.</p>
      )}
      {fitting && epochs.length === 0 && <p class="muted small">The first point appears after the first epoch.</p>}
    </div>
  );
}

function NeuralFields() {
  useEffect(() => {
    void checkPretrainedShipped();
  }, []);
  const status = neural.value;
  const env = selectedEnv.value;
  const fitting = isFitting.value;
  const info = status?.model ?? null;
  const fileBusy = neuralFileBusy.value;
  return (
    <>
      {info ? <ModelSummary info={info} /> : <p class="small" data-testid="neural-model">No neural model is fitted for {env} yet.</p>}
      <form class="row" onSubmit={(e) => { e.preventDefault(); void fitNeural(); }}>
        <label for="neural-epochs">Epochs</label>
        <input id="neural-epochs" type="number" min={1} max={MAX_EPOCHS} step={1} value={Number.isNaN(fitEpochs.value) ? '' : fitEpochs.value} disabled={fitting}
          onInput={(e) => { fitEpochs.value = (e.target as HTMLInputElement).valueAsNumber; }} />
        {env === PRETRAINED_ENV && pretrainedShipped.value === true && (
          <label>
            <input id="neural-pretrained" type="checkbox" checked={fineTunePretrainedModel.value} disabled={fitting}
              onChange={(e) => { fineTunePretrainedModel.value = (e.target as HTMLInputElement).checked; }} />
            {' '}From the pretrained web model
          </label>
        )}
        <button type="submit" class="primary" disabled={fitting || fileBusy}>Fit</button>
        <button type="button" disabled={fitState.value !== 'fitting'} onClick={() => void stopFit()}>Stop</button>
      </form>
      <BackendNote testId="neural-backend" backend={tfBackend.value} probe={neural.value?.backendProbe}
        why="named when the worker started, not measured" pending="The backend starts with the first fit or load: the fastest a short test measures here." />
      <p class="muted small">
        Learns the {env} transitions in the replay buffer (real ones only), holding out a tenth of the episodes to measure fidelity after every epoch.
        It runs in the experience worker, so the page stays usable; Stop keeps the model that was there.
      </p>
      <FitProgress />
      <FidelityChart />
      <div class="row">
        <button type="button" class="primary" disabled={applying.value || busy.value || active.value.kind === 'neural'} onClick={() => void applyExperience()}>
          Use the neural model
        </button>
        <button type="button" disabled={!info || fileBusy || fitting} onClick={() => void exportNeural()}>Export .dgx</button>
        <label for="neural-import">Import a .dgx file</label>
        <input id="neural-import" type="file" accept=".dgx,application/octet-stream" disabled={fileBusy || fitting}
          onChange={(e) => {
            const input = e.target as HTMLInputElement;
            const file = input.files?.[0];
            input.value = ''; // the same file can be chosen again after a fix
            if (file) void importNeuralFile(file);
          }} />
        <button type="button" disabled={!info || fileBusy || fitting} onClick={() => void forgetNeural()}>Forget this model</button>
      </div>
      {neuralFileError.value && <p class="error" role="alert" data-testid="neural-file-error">{neuralFileError.value}</p>}
    </>
  );
}

function HttpFields() {
  return (
    <form onSubmit={(e) => { e.preventDefault(); void applyExperience(); }}>
      <fieldset class="plain" disabled={applying.value || busy.value}>
        <legend class="visually-hidden">Endpoint</legend>
        <div class="form-grid">
          <label for="http-endpoint">Endpoint</label>
          <input id="http-endpoint" type="text" inputMode="url" value={httpEndpoint.value} spellcheck={false} placeholder="http://127.0.0.1:8080"
            onInput={(e) => { httpEndpoint.value = (e.target as HTMLInputElement).value; }} />
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
        <button type="button" class="primary" disabled={loading || busy.value || !selectedModel.value} onClick={() => void applyExperience()}>Load model</button>
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

/** A model the registry adds without a panel here: its settings as the registry labels them, then Use. */
function OtherFields({ kind }: { kind: ExperienceKind }) {
  const summary = experienceModels.value.find((m) => m.kind === kind);
  if (!summary) return null;
  const typed = otherSettings.value[kind] ?? {};
  const set = (field: string, text: string) => { otherSettings.value = { ...otherSettings.value, [kind]: { ...typed, [field]: text } }; };
  return (
    <form onSubmit={(e) => { e.preventDefault(); void applyExperience(); }}>
      {summary.settings.length > 0 && (
        <div class="form-grid">
          {summary.settings.map((s) => (
            <Fragment key={s.field}>
              <label for={`setting-${kind}-${s.field}`}>{s.label}</label>
              {s.input === 'secret'
                ? <input id={`setting-${kind}-${s.field}`} type="password" autoComplete="off" title={s.help} value={typed[s.field] ?? ''} onInput={(e) => set(s.field, (e.target as HTMLInputElement).value)} />
                : s.input === 'number'
                  ? <input id={`setting-${kind}-${s.field}`} type="number" title={s.help} value={typed[s.field] ?? ''} onInput={(e) => set(s.field, (e.target as HTMLInputElement).value)} />
                  : <input id={`setting-${kind}-${s.field}`} type="text" title={s.help} value={typed[s.field] ?? ''} onInput={(e) => set(s.field, (e.target as HTMLInputElement).value)} />}
            </Fragment>
          ))}
        </div>
      )}
      <div class="row">
        <button type="submit" class="primary" disabled={applying.value || busy.value || active.value.kind === kind}>Use {summary.label}</button>
      </div>
    </form>
  );
}

/** The Experience view's model picker: every model the registry offers the app, each with its panel. */
export function ExperiencePicker() {
  const kind = experienceKind.value;
  return (
    <section class="panel" aria-labelledby="experience-title">
      <h2 id="experience-title">Experience model</h2>
      <p class="small">In use: <strong data-testid="active-experience">{activeKnown.value ? active.value.name : 'checking this browser\'s saved models…'}</strong></p>
      {active.value.fallback && (
        <p class="small hint" data-testid="neural-hint">
          {active.value.fallback}{' '}
          <button type="button" disabled={isFitting.value} onClick={() => void fitFromHint()}>Fit the neural model (no download)</button>
        </p>
      )}
      <fieldset class="experience-kinds">
        <legend>Model</legend>
        {experienceModels.value.map((m) => (
          <label key={m.kind} class="experience-kind">
            <input type="radio" name="experience-model" value={m.kind} checked={kind === m.kind} onChange={() => chooseKind(m.kind)} />
            {' '}<strong>{m.label}</strong> <span class="muted small">{m.help}</span>
          </label>
        ))}
      </fieldset>
      {kind === 'neural' && <NeuralFields />}
      {kind === 'knn' && <KnnFields />}
      {kind === 'http' && <HttpFields />}
      {kind === 'webllm' && <WebLlmFields />}
      {!OWN_PANELS.includes(kind) && <OtherFields kind={kind} />}
      <div class="row">
        <label for="k-examples">Retrieved real transitions per step (k)</label>
        <input id="k-examples" type="number" min={MIN_K} max={MAX_K} step={1} value={Number.isNaN(kExamples.value) ? '' : kExamples.value} disabled={busy.value}
          onInput={(e) => void setK((e.target as HTMLInputElement).valueAsNumber)} />
      </div>
    </section>
  );
}
