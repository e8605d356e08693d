import { useEffect, useMemo } from 'preact/hooks';
import { FileDropZone } from '../FileDropZone.tsx';
import { LiveChart, type ChartSeries } from '../train/LiveChart.tsx';
import type { HeldOutEvaluation } from '../../services/policy-player.ts';
import { cardCurve, curveColumns, hasCurve, runCurve } from './evaluate-chart.ts';
import type { PolicyFileHeader } from '../../policy/dgp.ts';
import { envs } from '../env-client.ts';
import { EpisodeStatus } from '../play/EpisodeStatus.tsx';
import { EpisodeColumns } from '../play/EpisodeColumns.tsx';
import { LivePage } from '../LivePage.tsx';
import { Transcript } from '../play/Transcript.tsx';
import { whyInvalid } from '../play/invalid-action.ts';
import type { StepResult } from '../../core/types.ts';
import {
  busy, clock, downloadReport, ensureStoredRuns, episode, episodeError, ensureEnvs, evaluateHeldOutTasks, exportSafetensors, fileError, fileName, header,
  heldOutEpisodes, heldOutError, heldOutProblem, heldOutProgress, heldOutResults, heldOutRunning, heldOutSecondsLeft, isDone, lastStep, loadPolicyFiles,
  loading, observation, openFromHash, openStoredRun, policyEnv, runsWithPolicy, runToEnd, running, sourceRun, split, splitSize, startEpisode, stepOnce,
  steps, stopHeldOut, taskIndex, taskProblem, testSplit, totalReward,
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

/** A mean score (mean final reward × 100) as a person reads it: one decimal, out of 100. */
function score(value: unknown): string {
  return typeof value === 'number' && Number.isFinite(value) ? `${value.toFixed(1)} of 100` : show(value);
}

const int = (n: number) => n.toLocaleString('en-US');

function duration(seconds: number): string {
  if (seconds < 10) return `${seconds.toFixed(1)} s`;
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`;
  return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
}

function localTime(value: string): string | null {
  const time = Date.parse(value);
  return Number.isNaN(time) ? null : new Date(time).toLocaleString();
}

/** The policies kept with stored runs (every run the Train view or the guided run finished): one click opens one. */
function StoredPolicies() {
  const list = runsWithPolicy.value;
  const current = sourceRun.value?.id ?? '';
  return (
    <section class="panel" aria-labelledby="stored-title">
      <h2 id="stored-title">Policies of your runs</h2>
      {list.length === 0 ? (
        <p class="muted" data-testid="stored-empty">
          No run kept in this browser has a policy yet. Every run the <a href="#train">Train</a> view or the guided run
          (<a href="#start">Start</a>) finishes keeps its policy, listed here and in <a href="#runs">Runs</a>.
        </p>
      ) : (
        <div class="row">
          <label for="stored-run">Run</label>
          <select id="stored-run" value={current} disabled={loading.value || running.value || heldOutRunning.value}
            onChange={(e) => { const id = (e.target as HTMLSelectElement).value; if (id) void openStoredRun(id); }}>
            {current === '' && <option value="">Choose a run…</option>}
            {list.map((r) => <option key={r.id} value={r.id}>{r.label}{r.run.eval ? ` · held-out ${(100 * r.run.eval.successRate).toFixed(1)}%` : ''}</option>)}
          </select>
          <span class="muted small">{list.length === 1 ? '1 run keeps a policy' : `${int(list.length)} runs keep a policy`}, newest first.</span>
        </div>
      )}
    </section>
  );
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

function HeaderView({ h }: { h: PolicyFileHeader }) {
  const training = h.training;
  const evaluation = h.evaluation;
  const created = localTime(h.createdAt);
  const sha = h.weightsSha256;
  return (
    <section class="panel" aria-labelledby="policy-title">
      <h2 id="policy-title">Policy <span class="muted small" data-testid="policy-source">{sourceRun.value ? `of the run ${fileName.value ?? ''}` : fileName.value}</span></h2>
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
        <div><dt>Held-out result when trained</dt><dd data-testid="policy-evaluation">{evaluation
          ? <>success {percent(evaluation.successRate)}, mean score {score(evaluation.meanScore)}, on {show(evaluation.episodes)} episodes of the {show(evaluation.split)} split in the real {h.env} environment</>
          : <span class="muted">none recorded</span>}</dd></div>
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

/** One evaluation's figures, each saying what it counts and where. */
function resultText(e: HeldOutEvaluation, env: string): string {
  const r = e.result;
  const wins = Math.round(r.successRate * r.episodes);
  const stopped = e.stopped ? `; stopped after ${int(r.episodes)} of ${int(e.requested)} asked` : '';
  return `Success ${(100 * r.successRate).toFixed(1)}% (${int(wins)} of ${int(r.episodes)} held-out ${r.split} tasks${stopped}) in the real ${env} environment · ` +
    `mean score ${r.meanScore.toFixed(1)} of 100 · ${r.meanSteps.toFixed(1)} steps per episode · ${duration(e.seconds)}`;
}

function HeldOutChart({ evaluated }: { evaluated: HeldOutEvaluation | null }) {
  const h = header.value;
  const run = sourceRun.value;
  const curve = useMemo(() => (run ? runCurve(run.run) : h ? cardCurve(h) : null), [run, h]);
  const now = evaluated ? evaluated.result.successRate : null;
  const data = useMemo(() => (curve ? curveColumns(curve, now) : null), [curve, now]);
  if (!curve || !data) return null;
  if (!hasCurve(curve, now)) return <p class="muted small">This policy's file carries no training curve; evaluate it to chart its held-out success.</p>;
  const trained = curve.trainedIn === 'model' ? 'training episodes, inside the experience model' : 'training episodes, real environment';
  const here = evaluated ? `held-out, evaluated here (real ${h?.env ?? ''}, ${int(evaluated.result.episodes)} episodes)` : 'held-out, evaluated here (real environment)';
  const series: ChartSeries[] = [
    { label: `success on ${trained}`, axis: 'left', color: '#3b82f6' },
    { label: 'held-out success during training (real environment, test split)', axis: 'left', color: '#f08c00', points: true, dash: [6, 4] },
    { label: here, axis: 'left', color: '#e03131', points: true },
  ];
  return (
    <div class="charts" data-testid="heldout-chart">
      <LiveChart key={series.map((s) => s.label).join('|')} title="Success by transitions spent" xLabel="transitions spent (real + synthetic)"
        left={{ label: 'success', range: [0, 1] }} series={series} data={data} />
    </div>
  );
}

function HeldOut() {
  const h = header.value;
  const env = h?.env ?? '';
  const progress = heldOutProgress.value;
  const splitInfo = testSplit.value;
  const results = heldOutResults.value;
  const latest = results.at(-1) ?? null;
  const n = heldOutEpisodes.value;
  const left = heldOutSecondsLeft(progress, clock.value);
  return (
    <section class="panel" aria-labelledby="heldout-title">
      <h2 id="heldout-title">Evaluate on held-out tasks</h2>
      <p class="muted small">
        The policy plays each task greedily (its most likely action at every step) in the real {env} environment, on tasks of
        the held-out {splitInfo ? `${splitInfo.name} split (${int(splitInfo.size)} tasks)` : 'test split'} it never trained on,
        drawn with its training seed: the evaluation a training run ends with.
      </p>
      <form class="row" onSubmit={(e) => { e.preventDefault(); void evaluateHeldOutTasks(); }}>
        <label for="heldout-episodes">Held-out tasks</label>
        <input id="heldout-episodes" type="number" min={1} max={splitInfo?.size} step={1} value={Number.isNaN(n) ? '' : n} disabled={heldOutRunning.value}
          aria-invalid={heldOutProblem.value !== null} aria-describedby={heldOutProblem.value ? 'heldout-problem' : undefined}
          onInput={(e) => { heldOutEpisodes.value = (e.target as HTMLInputElement).valueAsNumber; }} />
        {progress
          ? <button type="button" onClick={() => void stopHeldOut()}>Stop</button>
          : <button type="submit" class="primary" disabled={heldOutProblem.value !== null || !policyEnv.value || Number.isNaN(n)}>
            Evaluate on {Number.isInteger(n) && n > 0 ? int(n) : 'N'} held-out tasks
          </button>}
      </form>
      {heldOutProblem.value && <p class="error" id="heldout-problem" data-testid="heldout-problem">{heldOutProblem.value}</p>}
      {progress && (
        <>
          <label class="progress-label" for="heldout-progress" data-testid="heldout-progress">
            Playing in the real {env} environment: {int(progress.done)} / {int(progress.total)} episodes
            {left !== null ? <> · about {duration(left)} left</> : <> · time left known after the first episode</>}
          </label>
          <progress id="heldout-progress" max={progress.total} value={progress.done} />
        </>
      )}
      {heldOutError.value && <p class="error" role="alert" data-testid="heldout-error">{heldOutError.value}</p>}
      {latest && <p role="status" class="result" data-testid="heldout-result">{resultText(latest, env)}</p>}
      {results.length > 1 && (
        <details>
          <summary>Earlier evaluations of this policy here ({results.length - 1})</summary>
          <ul class="small">{results.slice(0, -1).reverse().map((r, i) => <li key={i}>{resultText(r, env)}</li>)}</ul>
        </details>
      )}
      <HeldOutChart evaluated={latest} />
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
  useEffect(() => {
    void ensureEnvs();
    void ensureStoredRuns();
    // `#evaluate?run=<id>` (the Runs view's Evaluate) opens that run's policy, now or when the hash changes.
    const onHash = () => openFromHash(window.location.hash);
    onHash();
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
  const h = header.value;
  return (
    <>
      <StoredPolicies />
      <DropZone />
      {h ? (
        <>
          <HeaderView h={h} />
          <HeldOut />
          <EpisodeControls />
          {policyEnv.value?.actionSyntax === 'page' && (
            <LivePage titleId="eval-live-page-title" title="The live page" hint="The policy acts on this page, one step each time you ask; the state beside it is what the policy reads." />
          )}
          <Episode />
        </>
      ) : <p class="muted">{loading.value ? 'Opening the policy…' : 'Open a policy of one of your runs, or load a file, to see what it was trained on, evaluate it on held-out tasks and watch it play.'}</p>}
    </>
  );
}
