import { divergedMeasures } from '../../rl/divergence-words.ts';
import { checkPretrainedShipped, pretrainedShipped, pretrainedUrl, startFromPretrainedPolicy } from '../pretrained.ts';
import { PRETRAINED_ENV } from '../../jobs/pretrained-files.ts';
import { BackendNote } from '../BackendProbeNote.tsx';
import { useEffect } from 'preact/hooks';
import { ALGORITHMS, type AlgoName } from '../../rl/config.ts';
import { defaultSplit, envs } from '../env-client.ts';
import { LivePage } from '../LivePage.tsx';
import { BackendSelect } from '../BackendSelect.tsx';
import { formatNumber, LiveChart, type ChartSeries } from './LiveChart.tsx';
import {
  backend, backendProbe, backendWhy, budgetKind, budgetTotal, budgetUsed, canExport, canStop, ensureEnvs, error, evaluating, exportCurrentPolicy, exporting,
  formAlgo, formBackend, formBudget, formCurriculum, formEnv, formEvalEpisodes, formEvalEvery, formFinalEvalEpisodes, formLambda, formMode, formProblem, formSeed, formTasks,
  formSyntheticBudget, history, isActive, latest, lossData, pauseTraining, result, resumeTraining, runRequest, runState, secondsLeft, setFormMode,
  stabilityData, startTraining, stopTraining, successData, type RunState,
  discardSavedRun, experienceLabel, formCheckpointSeconds, lastSave, loadSavedRun, resumeSavedRun, savedRun, saveProblem, workerProblem,
} from './train-store.ts';
import { kExamples } from '../experience/experience-store.ts';
import type { AppTrainMode, TrainRequest } from '../../services/trainer-service.ts';
import type { EvalResult } from '../../train/evaluate.ts';

const STATE_TEXT: Record<RunState, string> = {
  idle: 'Not started',
  starting: 'Starting the trainer…',
  running: 'Training',
  pausing: 'Pausing…',
  paused: 'Paused',
  stopping: 'Stopping…',
  done: 'Done',
  stopped: 'Stopped',
  error: 'Failed',
};

// Mid-tone colours that read on both the light and the dark background.
const BLUE = '#3b82f6';
const ORANGE = '#f08c00';
const GREEN = '#2f9e44';
const PURPLE = '#ae3ec9';

/**
 * Where a run's figures are measured: its training episodes in the dream (inside the experience
 * model) or in the real environment; held-out evaluations always in the real environment.
 */
export function whereMeasured(request: Pick<TrainRequest, 'env' | 'mode'>): { train: string; heldOut: string; steps: string } {
  const real = `in the real ${request.env}`;
  return request.mode === 'dream'
    ? { train: 'in the dream', heldOut: real, steps: 'synthetic steps (in the dream)' }
    : { train: real, heldOut: real, steps: `real steps (in the real ${request.env})` };
}

function successSeries(request: TrainRequest): ChartSeries[] {
  const where = whereMeasured(request);
  return [
    { label: `train success ${where.train}`, color: BLUE, axis: 'left' },
    { label: `held-out success ${where.heldOut}`, color: GREEN, axis: 'left', points: true },
    { label: `train score ${where.train}`, color: ORANGE, axis: 'right', dash: [6, 4] },
    { label: `held-out score ${where.heldOut}`, color: PURPLE, axis: 'right', dash: [6, 4], points: true },
  ];
}
/** GRPO has no value function, so no value loss: its chart and tiles leave it out. */
const hasValueLoss = (request: TrainRequest | null) => request?.algo !== 'grpo';
const LOSS_SERIES: ChartSeries[] = [
  { label: 'policy loss', color: BLUE, axis: 'left' },
  { label: 'value loss', color: ORANGE, axis: 'right' },
];
const STABILITY_SERIES: ChartSeries[] = [
  { label: 'entropy', color: GREEN, axis: 'left' },
  { label: 'approx KL', color: PURPLE, axis: 'right' },
];

const int = (n: number) => n.toLocaleString('en-US');
const pct = (n: number) => `${(100 * n).toFixed(1)}%`;

function formatDuration(seconds: number): string {
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`;
  return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
}

function numberInput(id: string, value: number, set: (n: number) => void, min: number) {
  return (
    <input id={id} type="number" min={min} step={1} value={Number.isNaN(value) ? '' : value}
      onInput={(e) => set((e.target as HTMLInputElement).valueAsNumber)} />
  );
}

function RunForm() {
  const state = runState.value;
  return (
    <section class="panel" aria-labelledby="run-title">
      <h2 id="run-title">Train a policy</h2>
      <form onSubmit={(e) => { e.preventDefault(); void startTraining(); }}>
        <fieldset class="plain" disabled={isActive.value}>
          <legend class="visually-hidden">Run settings</legend>
          <div class="form-grid">
            <label for="train-env">Environment</label>
            <select id="train-env" value={formEnv.value} onChange={(e) => { formEnv.value = (e.target as HTMLSelectElement).value; }}>
              {envs.value.map((env) => <option key={env.name} value={env.name}>{env.name}</option>)}
            </select>
            <label for="train-algo">Algorithm</label>
            <select id="train-algo" value={formAlgo.value} onChange={(e) => { formAlgo.value = (e.target as HTMLSelectElement).value as AlgoName; }}>
              {ALGORITHMS.map((name) => <option key={name} value={name}>{name.toUpperCase()}</option>)}
            </select>
            {formEnv.value === 'web' && (
              <>
                <label for="train-tasks">Tasks</label>
                <input id="train-tasks" type="text" value={formTasks.value} placeholder="all" aria-describedby="train-tasks-help"
                  onInput={(e) => { formTasks.value = (e.target as HTMLInputElement).value; }} />
              </>
            )}
            <label for="train-mode">Train in</label>
            <select id="train-mode" value={formMode.value} aria-describedby="train-mode-help"
              onChange={(e) => setFormMode((e.target as HTMLSelectElement).value as AppTrainMode)}>
              <option value="real">real environment</option>
              <option value="dream">dream</option>
            </select>
            {formMode.value === 'real' ? (
              <>
                <label for="train-budget">Real-transition budget</label>
                {numberInput('train-budget', formBudget.value, (n) => { formBudget.value = n; }, 1)}
              </>
            ) : (
              <>
                <label for="train-synthetic-budget">Synthetic-transition budget</label>
                {numberInput('train-synthetic-budget', formSyntheticBudget.value, (n) => { formSyntheticBudget.value = n; }, 1)}
              </>
            )}
            <label for="train-seed">Seed</label>
            {numberInput('train-seed', formSeed.value, (n) => { formSeed.value = n; }, 0)}
            <label for="train-eval-every">Evaluate every N iterations</label>
            {numberInput('train-eval-every', formEvalEvery.value, (n) => { formEvalEvery.value = n; }, 0)}
            <label for="train-eval-episodes">Evaluation episodes</label>
            {numberInput('train-eval-episodes', formEvalEpisodes.value, (n) => { formEvalEpisodes.value = n; }, 1)}
            <label for="train-final-eval-episodes">Final evaluation episodes</label>
            <input id="train-final-eval-episodes" type="number" min={1} step={1} placeholder="every held-out task"
              value={Number.isNaN(formFinalEvalEpisodes.value) ? '' : formFinalEvalEpisodes.value}
              onInput={(e) => { formFinalEvalEpisodes.value = (e.target as HTMLInputElement).valueAsNumber; }} />
          </div>
          {formEnv.value === 'web' && (
            <p id="train-tasks-help" class="muted small">
              The web tasks this run trains and is evaluated on: task ids, or <code>@app</code> (the app-like tasks) and{' '}
              <code>@widgets</code> (the others), separated by commas; empty, all of them.
            </p>
          )}
          {formEnv.value === PRETRAINED_ENV && pretrainedShipped.value === true && (
            <>
              <label class="row">
                <input id="train-pretrained" type="checkbox" checked={startFromPretrainedPolicy.value} aria-describedby="train-pretrained-help"
                  onChange={(e) => { startFromPretrainedPolicy.value = (e.target as HTMLInputElement).checked; }} />
                {' '}Start from the pretrained web policy
              </label>
              <p id="train-pretrained-help" class="muted small">
                The pretrained policy learned with PPO on generated web apps that share nothing with these pages but the web's
                conventions (<a href={pretrainedUrl('card')} target="_blank" rel="noreferrer">its card</a>). Unticked, the run starts
                from the seed's fresh policy.
              </p>
            </>
          )}
          <p id="train-mode-help" class="muted small">
            {formMode.value === 'dream'
              ? <>Dream mode takes no real step (0 real transitions): the policy learns from what the experience model chosen in the
                {' '}<a href="#experience">Experience</a> view predicts (now: <strong data-testid="dream-experience">{experienceLabel.value}</strong>,
                {' '}k = {kExamples.value}), which retrieves similar real transitions from the <a href="#buffer">Buffer</a>; the synthetic
                transitions are added to the buffer.</>
              : <>The policy learns from real environment steps.</>}
            {' '}Held-out evaluations always play the real environment: those during training use that many episodes; the final one
            plays every held-out task once, or N of them drawn with the seed when Final evaluation episodes says N.
          </p>
          <div class="row curriculum-settings">
            <label>
              <input id="train-curriculum" type="checkbox" checked={formCurriculum.value} aria-describedby="train-curriculum-help"
                onChange={(e) => { formCurriculum.value = (e.target as HTMLInputElement).checked; }} />
              {' '}Curriculum
            </label>
            <label for="train-lambda">λ (largest share of generated tasks)</label>
            <input id="train-lambda" type="number" min={0} max={1} step={0.05} disabled={!formCurriculum.value}
              value={Number.isNaN(formLambda.value) ? '' : formLambda.value}
              onInput={(e) => { formLambda.value = (e.target as HTMLInputElement).valueAsNumber; }} />
          </div>
          <p id="train-curriculum-help" class="muted small">
            With the curriculum, each iteration favours the tasks whose outcomes vary most under the current policy and adds
            variations of them (at most λ of the iteration's tasks); the <a href="#curriculum">Curriculum</a> view lists them.
            Without it, tasks are drawn uniformly.
          </p>
          <details class="advanced">
            <summary>Advanced</summary>
            <BackendSelect id="train-backend" value={formBackend.value} onChange={(choice) => { formBackend.value = choice; }} />
            <div class="row">
              <label for="train-checkpoint-seconds">Save the run every N seconds</label>
              <input id="train-checkpoint-seconds" type="number" min={0} step={1} aria-describedby="train-checkpoint-help"
                value={Number.isNaN(formCheckpointSeconds.value) ? '' : formCheckpointSeconds.value}
                onInput={(e) => { formCheckpointSeconds.value = (e.target as HTMLInputElement).valueAsNumber; }} />
            </div>
            <p id="train-checkpoint-help" class="muted small">
              The run saves itself to this browser (0: after every iteration), so a reload, a crash or a closed tab does not lose it:
              this view then offers to resume it, and the resumed run ends exactly where it would have.
            </p>
          </details>
        </fieldset>
        {formProblem.value && !isActive.value && <p class="muted small">{formProblem.value}</p>}
        <div class="row">
          <button type="submit" class="primary" disabled={isActive.value || formProblem.value !== null}>Start</button>
          {/* One button: Resume only while paused (an interrupted run has its own offer above, not a second Resume here). */}
          {state === 'paused'
            ? <button type="button" onClick={() => void resumeTraining()}>Resume</button>
            : <button type="button" disabled={state !== 'running'} onClick={() => void pauseTraining()}>Pause</button>}
          <button type="button" disabled={!canStop.value} onClick={() => void stopTraining()}>Stop</button>
          <button type="button" disabled={!canExport.value} onClick={() => void exportCurrentPolicy()}>
            {exporting.value ? 'Exporting…' : 'Export policy'}
          </button>
        </div>
      </form>
    </section>
  );
}

/** The run a reload, a crash or a closed tab interrupted: resume it or let it go. */
function SavedRunOffer() {
  const saved = savedRun.value;
  if (!saved || isActive.value) return null;
  const { request } = saved;
  const dream = request.mode === 'dream';
  const spent = dream ? `${int(saved.syntheticTransitions)} of ${int(request.syntheticBudget ?? 0)} synthetic` : `${int(saved.realTransitions)} of ${int(request.realBudget)} real`;
  return (
    <section class="panel" aria-labelledby="saved-run-title" data-testid="saved-run">
      <h2 id="saved-run-title">An interrupted run</h2>
      <p>
        {request.env} · {request.algo.toUpperCase()} · {dream ? 'dream' : 'real'} · seed {request.seed}: {saved.iteration} iterations done,
        {' '}{spent} transitions, saved {new Date(saved.savedAt).toLocaleString()} on {saved.backend}.
        {' '}Resumed, it ends exactly where it would have ended uninterrupted. Starting another run replaces it.
      </p>
      <div class="row">
        <button type="button" class="primary" onClick={() => void resumeSavedRun()}>Resume the run</button>
        <button type="button" onClick={() => void discardSavedRun()}>Discard it</button>
      </div>
    </section>
  );
}

function Progress() {
  const request = runRequest.value;
  const m = latest.value;
  const done = budgetUsed.value;
  const total = budgetTotal.value;
  const kind = budgetKind.value;
  const left = secondsLeft.value;
  const rate = m?.samplesPerSecond;
  const evaluation = evaluating.value;
  return (
    <section class="panel" aria-labelledby="progress-title">
      <h2 id="progress-title">Progress</h2>
      <p class="row" role="status" aria-live="polite">
        <span data-testid="train-state" class={`run-state state-${runState.value}`}>{STATE_TEXT[runState.value]}</span>
      </p>
      <BackendNote testId="backend" backend={backend.value} probe={backendProbe.value} why={backendWhy.value ?? undefined}
        pending={runState.value === 'starting' ? 'Starting the backend (with auto: a short test picks the fastest here)…' : 'The backend is chosen when a run starts: the fastest a short test measures here, unless the form names one.'} />
      {request && (
        <>
          <label class="progress-label" for="budget-progress">
            <span data-testid={`${kind}-transitions`}>{int(done)}</span> / {int(total)} {kind} transitions
            {m && <> · iteration {m.iteration}</>}
            {rate !== undefined && Number.isFinite(rate) && <> · {int(Math.round(rate))} samples/s</>}
            {left !== null && <> · about {formatDuration(left)} left</>}
          </label>
          <progress id="budget-progress" max={total} value={Math.min(done, total)} />
        </>
      )}
      {evaluation && (
        <>
          <label class="progress-label" for="eval-progress" data-testid="eval-progress">
            Evaluating on the held-out split: {evaluation.done} / {evaluation.total} episodes
          </label>
          <progress id="eval-progress" max={evaluation.total} value={evaluation.done} />
        </>
      )}
      {request && isActive.value && lastSave.value && (
        <p class="muted small" data-testid="last-save">Saved to this browser after iteration {lastSave.value.iteration}.</p>
      )}
      {saveProblem.value && isActive.value && <p class="warning small">{saveProblem.value}</p>}
      {workerProblem.value && isActive.value && (
        <p class="warning small" data-testid="worker-problem">
          {workerProblem.value}
        </p>
      )}
      {m && <LatestMetrics />}
    </section>
  );
}

/** The final evaluation's size as the request sets it: N episodes, or every task of the held-out split. */
function finalEvalSize(request: TrainRequest): string {
  if (request.finalEvalEpisodes !== undefined) return `${int(request.finalEvalEpisodes)} episodes`;
  const env = envs.value.find((e) => e.name === request.env);
  const size = env?.splits.find((s) => s.name === defaultSplit(env))?.size;
  return size !== undefined ? `every held-out task once (${int(size)} episodes)` : 'every held-out task once';
}

const every = (n: number) => (n === 1 ? 'after every iteration' : `every ${int(n)} iterations`);

/** The latest held-out evaluation during the run, and the iteration it ran after. */
function lastHeldOut(): { eval: EvalResult; iteration: number } | null {
  for (let i = history.value.length - 1; i >= 0; i--) {
    const m = history.value[i]!;
    if (m.eval) return { eval: m.eval, iteration: m.iteration };
  }
  return null;
}

function LatestMetrics() {
  const m = latest.value;
  const request = runRequest.value;
  if (!m || !request) return null;
  const where = whereMeasured(request);
  const held = lastHeldOut();
  const dream = request.mode === 'dream';
  return (
    <>
      <dl class="metrics" aria-label="Latest iteration">
        <div><dt>train success <span class="where">{where.train}</span></dt><dd data-testid="tile-train-success">{pct(m.successRate)}</dd></div>
        <div><dt>train score <span class="where">{where.train}</span></dt><dd>{m.meanScore.toFixed(1)}</dd></div>
        {held && (
          <div>
            <dt>held-out success <span class="where">{where.heldOut}, {int(held.eval.episodes)} episodes</span></dt>
            <dd data-testid="tile-held-out-success">{pct(held.eval.successRate)}</dd>
          </div>
        )}
        <div><dt>policy loss</dt><dd>{formatNumber(m.policyLoss)}</dd></div>
        {hasValueLoss(request) && <div><dt>value loss</dt><dd>{formatNumber(m.valueLoss)}</dd></div>}
        <div><dt>entropy</dt><dd>{formatNumber(m.entropy)}</dd></div>
        <div><dt>approx KL</dt><dd>{formatNumber(m.approxKl)}</dd></div>
        {m.curriculum && <div><dt>curriculum pool</dt><dd>{int(m.curriculum.pool)} tasks</dd></div>}
        {m.curriculum && <div><dt>generated tasks this iteration</dt><dd>{int(m.curriculum.generated)}</dd></div>}
      </dl>
      <p class="muted small" data-testid="metrics-note">
        Iteration {m.iteration}.{' '}
        {dream
          ? <>Train success and score are measured <strong>inside the experience model</strong>: on the episodes the policy played in the dream,
            {' '}judged by what the model predicted (a model that rarely predicts a success keeps them low while the policy improves in the real {request.env}).{' '}</>
          : <>Train success and score are the iteration's own training episodes in the real {request.env} (actions sampled, so they explore).{' '}</>}
        {held
          ? <>Held-out success is measured in the real {request.env} on tasks kept out of training: {int(held.eval.episodes)} episodes after iteration {held.iteration}
            {' '}(a quick check {every(request.evalEvery ?? 0)}, so it moves by several points from one check to the next).{' '}</>
          : <>Held-out success is measured in the real {request.env} on tasks kept out of training{(request.evalEvery ?? 0) > 0 ? `, ${every(request.evalEvery ?? 0)} on ${int(request.evalEpisodes ?? 0)} episodes` : ''}.{' '}</>}
        The result at the end plays {finalEvalSize(request)}: the figure to compare runs by.
      </p>
    </>
  );
}

function Charts() {
  const request = runRequest.value;
  if (!request) return null;
  const where = whereMeasured(request);
  const valueLoss = hasValueLoss(request);
  const losses = lossData.value;
  return (
    <section class="panel" aria-labelledby="charts-title">
      <h2 id="charts-title">Charts <span class="muted small">{history.value.length === 0 ? 'the first points appear after the first iteration' : ''}</span></h2>
      <div class="charts">
        <LiveChart title={request.mode === 'dream' ? 'Success and score (train: in the dream; held-out: real)' : 'Success and score'} xLabel={where.steps}
          data={successData.value} series={successSeries(request)}
          left={{ label: 'success rate', range: [0, 1] }} right={{ label: 'score', range: [0, 100] }} />
        <LiveChart title={valueLoss ? 'Losses' : 'Policy loss (GRPO has no value function)'} xLabel={where.steps}
          data={valueLoss ? losses : [losses[0], losses[1]!]} series={valueLoss ? LOSS_SERIES : LOSS_SERIES.slice(0, 1)}
          left={{ label: 'policy loss' }} {...(valueLoss ? { right: { label: 'value loss' } } : {})} />
        <LiveChart title="Entropy and approximate KL" xLabel={where.steps} data={stabilityData.value} series={STABILITY_SERIES}
          left={{ label: 'entropy' }} right={{ label: 'approx KL' }} />
      </div>
    </section>
  );
}

function Result() {
  const final = result.value;
  if (!final) return null;
  const evaluation = final.eval;
  const tasks = runRequest.value?.tasks ?? [];
  return (
    <section class="panel" aria-labelledby="result-title">
      <h2 id="result-title">{final.diverged ? 'Diverged' : final.stopped ? 'Stopped' : 'Result'}</h2>
      {final.diverged && (
        <p class="warning" role="alert" data-testid="train-diverged">
          Training diverged at iteration {final.diverged.iteration}: its {divergedMeasures(final.diverged)} became NaN or infinite, so the
          run stopped there and kept {final.diverged.iteration > 1 ? `the policy of iteration ${final.diverged.iteration - 1}, the last with finite weights` : 'the policy as it started'} (the
          figures below are that policy's). The learning rate was {final.diverged.learningRate}: lower it, or bring back the settings you changed, and start again.
        </p>
      )}
      <p data-testid="train-result">
        {final.env}{tasks.length > 0 ? ` (tasks ${tasks.join(', ')})` : ''} · {final.algo.toUpperCase()} · seed {final.seed} ·{' '}
        {final.mode === 'dream'
          ? <>dream: {int(final.syntheticTransitions)} synthetic transitions from {final.dream?.experience ?? 'the experience model'}, 0 real,</>
          : <>{int(final.realTransitions)} real transitions</>}
        {' '}in {final.iterations} iterations
        {final.initialPolicy ? <> from the {final.initialPolicy.name.startsWith('pretrained') ? 'pretrained web policy' : <code>{final.initialPolicy.name}</code>}</> : null}
        {' '}({formatDuration(final.wallSeconds)}) on {final.backend}{final.backendProbe ? ', the fastest the probe measured' : ''}.{' '}
        {final.curriculum && <>Curriculum λ {final.curriculum.lambda}: {int(final.curriculum.pool)} tasks in the pool, {int(final.curriculum.generatedInPool)} generated.{' '}</>}
        {evaluation
          ? <>Held-out split <strong>{evaluation.split}</strong>: success <strong>{pct(evaluation.successRate)}</strong>, score <strong>{evaluation.meanScore.toFixed(1)}</strong> over {evaluation.episodes} episodes.</>
          : <>No held-out evaluation ran before the stop.</>}
      </p>
      {evaluation && (
        <p class="muted small">
          Actions digest <code data-testid="actions-digest">{evaluation.actionsDigest.slice(0, 16)}</code>: two runs with the same digest
          chose the same actions in every held-out episode.
        </p>
      )}
      <p class="muted small">The run is kept in this browser: compare it with others in <a href="#runs">Runs</a>.</p>
    </section>
  );
}

export function TrainView() {
  useEffect(() => {
    void ensureEnvs();
    void loadSavedRun();
    void checkPretrainedShipped();
  }, []);
  return (
    <>
      {error.value && <p class="error" role="alert">{error.value}</p>}
      <SavedRunOffer />
      <RunForm />
      <Progress />
      {envs.value.find((e) => e.name === formEnv.value)?.actionSyntax === 'page' && (
        <LivePage titleId="train-live-pages-title" title="The live pages" grid
          hint="Real steps play on these pages as the policy takes them: one frame per episode running at once, in training and in the held-out evaluations (a dream run's synthetic steps have no page)." />
      )}
      <Charts />
      <Result />
    </>
  );
}
