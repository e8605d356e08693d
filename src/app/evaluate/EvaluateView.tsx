import { useEffect } from 'preact/hooks';
import { FileDropZone } from '../FileDropZone.tsx';
import type { PolicyFileHeader } from '../../policy/dgp.ts';
import { envs } from '../env-client.ts';
import { EpisodeStatus } from '../play/EpisodeStatus.tsx';
import { EpisodeColumns } from '../play/EpisodeColumns.tsx';
import { LivePage } from '../LivePage.tsx';
import { Transcript } from '../play/Transcript.tsx';
import { whyInvalid } from '../play/invalid-action.ts';
import type { StepResult } from '../../core/types.ts';
import {
  busy, downloadReport, episode, episodeError, ensureEnvs, exportSafetensors, fileError, fileName, header, isDone, lastStep, loadPolicyFiles, loading,
  observation, policyEnv, runToEnd, running, split, splitSize, startEpisode, stepOnce, steps, taskIndex, taskProblem, totalReward,
} from './evaluate-store.ts';

/** Any value read from a file, as plain text (rendered by JSX as a text node, never as HTML). */
function show(value: unknown): string {
  if (value === undefined || value === null) return '—';
  if (typeof value === 'number') return Number.isInteger(value) ? value.toLocaleString('en-US') : String(Number(value.toPrecision(6)));
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}

function percent(value: unknown): string {
  return typeof value === 'number' && Number.isFinite(value) ? `${(100 * value).toFixed(1)}%` : show(value);
}

function localTime(value: string): string | null {
  const time = Date.parse(value);
  return Number.isNaN(time) ? null : new Date(time).toLocaleString();
}

function DropZone() {
  const pick = (files: FileList | null | undefined) => {
    if (files && files.length > 0) void loadPolicyFiles([...files]);
  };
  return (
    <section class="panel" aria-labelledby="import-title">
      <h2 id="import-title">Import a policy</h2>
      <FileDropZone label="Drop a .dgp policy file here" onFiles={pick}>
        <p>Drop a <code>.dgp</code> policy file here (exported from the Train view or the CLI), or a policy exported as
          safetensors (its <code>model.safetensors</code> and <code>config.json</code> together), or choose one:</p>
        <div class="row">
          <label for="policy-file">Policy file (.dgp)</label>
          <input id="policy-file" type="file" accept=".dgp,.safetensors,.json" multiple disabled={loading.value || running.value}
            onChange={(e) => { const input = e.target as HTMLInputElement; pick(input.files); input.value = ''; }} />
          {loading.value && <span class="muted">Checking the file…</span>}
        </div>
      </FileDropZone>
      {fileError.value && <p class="error" role="alert" data-testid="file-error">{fileError.value}</p>}
    </section>
  );
}

/** A card's curve (`training.curve`: [transitions, success] points) as text; null when the file has none. */
function curveText(points: unknown): string | null {
  if (!Array.isArray(points) || points.length === 0) return null;
  const shown = points.filter((p): p is [number, number] => Array.isArray(p) && typeof p[0] === 'number' && typeof p[1] === 'number');
  if (shown.length === 0) return null;
  return shown.map(([t, s]) => `${percent(s)} at ${t.toLocaleString('en-US')}`).join(' → ');
}

/** The card's curve (`training.curve`), where the file has one. */
function CurveRows({ curve }: { curve: unknown }) {
  const { heldOut, training } = (curve ?? {}) as { heldOut?: unknown; training?: unknown };
  const heldOutText = curveText(heldOut);
  const trainingText = curveText(training);
  return (
    <>
      {heldOutText && <div><dt>Held-out success during training</dt><dd data-testid="policy-curve">{heldOutText} transitions</dd></div>}
      {trainingText && <div><dt>Training success</dt><dd>{trainingText} transitions</dd></div>}
    </>
  );
}

function HeaderView({ h }: { h: PolicyFileHeader }) {
  const training = h.training;
  const evaluation = h.evaluation;
  const created = localTime(h.createdAt);
  const sha = h.weightsSha256;
  return (
    <section class="panel" aria-labelledby="policy-title">
      <h2 id="policy-title">Policy <span class="muted small">{fileName.value}</span></h2>
      <dl class="fields" data-testid="policy-header">
        <div><dt>Environment</dt><dd data-testid="policy-env">{h.env}</dd></div>
        <div><dt>Algorithm</dt><dd data-testid="policy-algorithm">{h.algorithm}</dd></div>
        <div><dt>Trained on backend</dt><dd>{h.backend}</dd></div>
        <div><dt>Created</dt><dd>{h.createdAt}{created && <span class="muted"> ({created})</span>}</dd></div>
        {training.mode !== undefined && <div><dt>Mode</dt><dd data-testid="policy-mode">{show(training.mode)}</dd></div>}
        <div><dt>Real transitions</dt><dd>{show(training.realTransitions)}{training.realBudget !== undefined && <span class="muted"> of a budget of {show(training.realBudget)}</span>}</dd></div>
        {Number(training.syntheticTransitions) > 0 && <div><dt>Synthetic transitions</dt><dd>{show(training.syntheticTransitions)}</dd></div>}
        <div><dt>Iterations</dt><dd>{show(training.iterations)}</dd></div>
        {training.seed !== undefined && <div><dt>Seed</dt><dd>{show(training.seed)}</dd></div>}
        <div><dt>Evaluation</dt><dd>{evaluation
          ? <>split {show(evaluation.split)}: success {percent(evaluation.successRate)}, score {show(evaluation.meanScore)} over {show(evaluation.episodes)} episodes</>
          : <span class="muted">none recorded</span>}</dd></div>
        <CurveRows curve={training.curve} />
        <div><dt>Hidden size</dt><dd>{show(h.architecture.hidden)}</dd></div>
        <div><dt>Weights SHA-256</dt><dd><code title={sha}>{sha.slice(0, 12)}…</code></dd></div>
      </dl>
      <div class="row">
        <button type="button" onClick={() => void exportSafetensors()}>Export as safetensors</button>
        <span class="muted small">model.safetensors and config.json: weights numpy can read, and this card (see docs/training.md, "Files others can read").</span>
      </div>
    </section>
  );
}

function EpisodeControls() {
  const env = policyEnv.value;
  const max = Math.max(0, splitSize.value - 1);
  return (
    <section class="panel" aria-labelledby="episode-title">
      <h2 id="episode-title">Watch it act</h2>
      {!env && !episodeError.value && (envs.value.length === 0
        ? <p class="muted">Looking up the environment {header.value?.env}…</p>
        : <p class="error" role="alert">This page has no environment {header.value?.env}, so the policy cannot play here.</p>)}
      <form class="row" onSubmit={(e) => { e.preventDefault(); void startEpisode(); }}>
        <label for="eval-split">Split</label>
        <select id="eval-split" value={split.value} disabled={running.value}
          onChange={(e) => { split.value = (e.target as HTMLSelectElement).value; taskIndex.value = 0; }}>
          {env?.splits.map((s) => <option key={s.name} value={s.name}>{s.name} ({s.size})</option>)}
        </select>
        <label for="eval-task">Task</label>
        <input id="eval-task" type="number" min={0} max={max} step={1} value={taskIndex.value} disabled={running.value}
          aria-invalid={taskProblem.value !== null} aria-describedby={taskProblem.value ? 'eval-task-problem' : undefined}
          onInput={(e) => { taskIndex.value = (e.target as HTMLInputElement).valueAsNumber; }} />
        <button type="submit" class="primary" disabled={busy.value || running.value || taskProblem.value !== null}>Start episode</button>
        <button type="button" disabled={!episode.value || isDone.value || busy.value || running.value} onClick={() => void stepOnce()}>Step</button>
        {running.value
          ? <button type="button" onClick={() => { running.value = false; }}>Stop</button>
          : <button type="button" disabled={!episode.value || isDone.value || busy.value} onClick={() => void runToEnd()}>Run to end</button>}
        <button type="button" disabled={steps.value.length === 0 || busy.value || running.value} onClick={downloadReport}
          title="One HTML file: every step's page, state, action with its probability and alternatives, and reward">Download the report</button>
      </form>
      {taskProblem.value && <p class="error" id="eval-task-problem" data-testid="eval-task-problem">{taskProblem.value}</p>}
      {episodeError.value && <p class="error" role="alert">{episodeError.value}</p>}
    </section>
  );
}

/** The env's reason when it did not take the policy's action (its candidates were admissible when it chose). */
function invalidNote(result: StepResult): string {
  const why = whyInvalid(result);
  return why === null ? '' : ` The action was not taken: ${why}`;
}

function Status() {
  const last = lastStep.value?.result ?? null;
  return (
    <EpisodeStatus last={last} steps={steps.value.length} totalReward={totalReward.value} testId="eval-status"
      ongoing={last
        ? `Last reward ${last.reward.toFixed(2)}.${invalidNote(last)}`
        : 'The policy has not acted yet: press Step or Run to end.'} />
  );
}

function Choice() {
  const last = lastStep.value;
  if (!last) return <p class="muted">No action yet.</p>;
  const top = last.candidates.slice(0, 5);
  return (
    <>
      <p>Chose <code data-testid="chosen-action">{last.action}</code> <span class="muted small">value estimate {last.value.toFixed(3)}</span></p>
      <h3 class="small">Top candidates <span class="muted">of {last.candidates.length}</span></h3>
      <ol class="candidates" data-testid="candidates">
        {top.map((c) => (
          <li key={c.action} class={c.action === last.action ? 'chosen' : ''}>
            <code>{c.action}</code>
            <span class="bar" aria-hidden="true"><span style={{ width: `${Math.max(0, Math.min(100, 100 * c.probability)).toFixed(1)}%` }} /></span>
            <span class="prob">{(100 * c.probability).toFixed(1)}%</span>
          </li>
        ))}
      </ol>
    </>
  );
}

function Episode() {
  const ep = episode.value;
  const obs = observation.value;
  if (!ep || !obs) return null;
  return (
    <>
      <section class="panel" aria-labelledby="eval-task-title">
        <h2 id="eval-task-title">Task <span class="muted small">{ep.split} #{ep.index} · {ep.task.id} · difficulty {ep.task.difficulty}</span></h2>
        <p class="instruction" data-testid="eval-instruction">{ep.task.instruction}</p>
        <Status />
      </section>
      <EpisodeColumns idPrefix="eval" stateTitle="What the policy sees" text={obs.text} actTitle="The policy's choice">
        <Choice />
      </EpisodeColumns>
      <Transcript entries={steps.value} titleId="eval-transcript-title" />
    </>
  );
}

export function EvaluateView() {
  useEffect(() => { void ensureEnvs(); }, []);
  const h = header.value;
  return (
    <>
      <DropZone />
      {h ? (
        <>
          <HeaderView h={h} />
          <EpisodeControls />
          {policyEnv.value?.actionSyntax === 'page' && (
            <LivePage titleId="eval-live-page-title" title="The live page" hint="The policy acts on this page, one step each time you ask; the state beside it is what the policy reads." />
          )}
          <Episode />
        </>
      ) : <p class="muted">Load a policy to see what it was trained on and watch it play.</p>}
    </>
  );
}
