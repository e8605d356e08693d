/**
 * The Start view: what DreamGym is, its loop in one picture, and one button that runs the loop on
 * the shop with the embedded defaults (jobs/guide-plan.ts), phase by phase, ending with the dream
 * policy and a real-mode policy judged side by side in the real shop, and one episode where the
 * experience model's imagined states stand beside the real ones. Every figure links to its view.
 */
import { useEffect } from 'preact/hooks';
import { GUIDE_LENGTHS, GUIDE_MEASURED, GUIDE_PHASES, type GuideLength, type GuidePhase } from '../../jobs/guide-plan.ts';
import type { EvalResult } from '../../train/evaluate.ts';
import { LoopPicture } from './LoopPicture.tsx';
import { BackendSelect } from '../BackendSelect.tsx';
import { BackendNote } from '../BackendProbeNote.tsx';
import { evaluateRunHash } from '../runs/runs-store.ts';
import { stateMarks } from '../play/state-diff.ts';
import { clock, guideBackend, guideBackendUsed, guideError, guideLength, guidePlan, guideResult, guideState, isRunning, loadGuide, phases, runGuide, secondsLeft, startOver, stopGuide, type PhaseProgress } from './guide-store.ts';

const int = (n: number) => n.toLocaleString('en-US');
const pct = (n: number) => `${(100 * n).toFixed(1)}%`;
const secs = (n: number) => (n < 60 ? `${Math.round(n)} s` : `${Math.floor(n / 60)} min ${Math.round(n % 60)} s`);

const STATE_TEXT: Record<PhaseProgress['state'], string> = { waiting: 'waiting', running: 'running', done: 'done', stopped: 'stopped', failed: 'failed' };

function PhaseRow({ phase, progress }: { phase: GuidePhase; progress: PhaseProgress }) {
  const left = secondsLeft(phase.id, progress, clock.value);
  const barId = `guide-progress-${phase.id}`;
  const stateText = guideState.value === 'interrupted' && progress.state === 'stopped' ? 'interrupted' : STATE_TEXT[progress.state];
  return (
    <li class={`guide-phase phase-${progress.state}`} data-testid={`guide-phase-${phase.id}`}>
      <h3>{phase.title} <span class="muted small" data-testid={`guide-phase-${phase.id}-state`}>{stateText}</span></h3>
      <p class="small">{phase.sentence(guidePlan.value)} <a href={phase.view.hash}>{phase.view.label}</a></p>
      {progress.state === 'running' && (
        <>
          <label class="progress-label small" for={barId} data-testid={`guide-phase-${phase.id}-progress`}>
            {progress.detail || 'starting'}
            {left !== null && <> · about {secs(left.seconds)} left{left.estimated ? ' (as measured on a 2-core machine)' : ''}</>}
          </label>
          {/* Before its first report a phase's bar is indeterminate: it moves, but claims no share done. */}
          {progress.fraction === null ? <progress id={barId} /> : <progress id={barId} max={1} value={progress.fraction} />}
        </>
      )}
      {progress.seconds !== null && progress.state !== 'running' && (
        <p class="muted small" data-testid={`guide-phase-${phase.id}-seconds`} data-seconds={progress.seconds.toFixed(2)}>took {secs(progress.seconds)}</p>
      )}
    </li>
  );
}

/** Percentage points, signed. */
const points = (n: number) => `${n >= 0 ? '+' : '−'}${Math.abs(100 * n).toFixed(1)} points`;

function PolicyCard({ title, evaluation, spent, untrained, testId, view = '#runs', runId = null }: { title: string; evaluation: EvalResult | null; spent: string; untrained: EvalResult | null; testId: string; view?: string; runId?: string | null }) {
  return (
    <div class="guide-card" data-testid={testId}>
      <h3>{title}</h3>
      {evaluation ? (
        <>
          <p>
            <a href={view} class="guide-figure" data-testid={`${testId}-success`}>{pct(evaluation.successRate)}</a> success on {int(evaluation.episodes)} real
            test tasks in the shop (score {evaluation.meanScore.toFixed(1)} of 100), {spent}.
            {untrained && evaluation !== untrained && <> <strong data-testid={`${testId}-gain`}>{points(evaluation.successRate - untrained.successRate)}</strong> over the untrained policy.</>}
          </p>
          {runId && <p class="small"><a href={evaluateRunHash(runId)} data-testid={`${testId}-evaluate`}>Evaluate this policy on more test tasks</a></p>}
        </>
      ) : (
        <p class="muted">Not judged yet.</p>
      )}
    </div>
  );
}

function Results() {
  const result = guideResult.value;
  if (!result.untrained && !result.dream && !result.real && !result.seeded) return null;
  return (
    <section class="panel" aria-labelledby="guide-results-title">
      <h2 id="guide-results-title">What came out</h2>
      {result.seeded && (
        <p class="small">
          The buffer got <a href="#buffer">{int(result.seeded.transitions)} real steps</a> from {int(result.seeded.episodes)} episodes
          {result.fitted && <>; the <a href="#experience">neural experience model</a> learned from {int(result.fitted.transitions ?? 0)} of them in {secs(result.fitted.seconds)}</>}.
        </p>
      )}
      <div class="guide-cards">
        <PolicyCard title="Untrained" evaluation={result.untrained} spent="before any training" untrained={result.untrained} testId="guide-untrained" view="#evaluate" />
        <PolicyCard title="Trained in the dream" evaluation={result.dream} spent={`trained on ${int(guidePlan.value.steps)} synthetic steps and 0 real ones`} untrained={result.untrained} testId="guide-dream" runId={result.runIds.dream} />
        <PolicyCard title="Trained in the real shop" evaluation={result.real} spent={`trained on ${int(guidePlan.value.steps)} real steps`} untrained={result.untrained} testId="guide-real" runId={result.runIds.real} />
      </div>
      <p class="muted small">
        All three are judged the same way: greedily, in the real shop, on {int(guidePlan.value.evalEpisodes)} test tasks none trained on. Both trained runs are
        kept in <a href="#runs">Runs</a> with their policies: compare their curves there, download a policy (.dgp), or open one in Evaluate
        to judge it on more test tasks or play it step by step.
      </p>
      {result.comparison && <Comparison instruction={result.comparison.instruction} rows={result.comparison.rows} />}
    </section>
  );
}

/**
 * A state's text with the lines that differ from `other` marked (≠), wherever they are: the
 * Experience view's comparison (play/state-diff.ts `stateMarks`, element numbers ignored), laid on
 * the text's own lines, one mark per non-blank line, as the state format has one header or element
 * on each.
 */
function MarkedState({ text, other, label }: { text: string; other: string; label: string }) {
  const marks = stateMarks(text, other);
  const flags = marks.raw ?? [...marks.header, ...marks.elements];
  let next = 0;
  return (
    <pre class="state small" tabIndex={0} aria-label={`${label}${marks.differing > 0 ? ` (${marks.differing} line${marks.differing === 1 ? '' : 's'} differ)` : ''}`}>
      {text.split(/\r?\n/).map((line, i) => {
        const differs = marks.raw ? flags[i] === true : line.trim() !== '' && flags[next++] === true;
        return <span key={i} class={differs ? 'differs' : undefined}>{differs ? '≠ ' : ''}{line}{'\n'}</span>;
      })}
    </pre>
  );
}

function Comparison({ instruction, rows }: { instruction: string; rows: NonNullable<ReturnType<typeof guideResult.peek>['comparison']>['rows'] }) {
  return (
    <>
      <h3>Imagined against real, step by step</h3>
      <p class="small">
        The dream policy plays “{instruction}” in the real shop. At each step the <a href="#experience">experience model</a> is asked what
        the action will do, from the same real state. Lines that differ between the two are marked ≠.
      </p>
      <div class="table-scroll">
        <table class="guide-comparison" data-testid="guide-comparison">
          <thead>
            <tr><th scope="col">Step</th><th scope="col">Action</th><th scope="col">The model imagined</th><th scope="col">The shop did</th><th scope="col">Next-state F1</th></tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.step}>
                <td>{row.step}</td>
                <td><code>{row.action}</code></td>
                <td><MarkedState text={row.imagined.text} other={row.real.text} label={`The state the model imagined after step ${row.step}`} /><span class="muted small">reward {row.imagined.reward.toFixed(2)}{row.imagined.done ? ' · ends' : ''}</span></td>
                <td><MarkedState text={row.real.text} other={row.imagined.text} label={`The state the shop showed after step ${row.step}`} /><span class="muted small">reward {row.real.reward.toFixed(2)}{row.real.done ? ' · ends' : ''}</span></td>
                <td>{row.nextStateF1 === null ? '—' : row.nextStateF1.toFixed(2)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

/** Each length as the Advanced choice names it, with what it costs and gives. */
const LENGTH_CHOICES: Record<GuideLength, string> = {
  full: `Full (about ${secs(GUIDE_MEASURED.full.total)} on a 2-core machine)`,
  short: `Short, for a demo (about ${secs(GUIDE_MEASURED.short.total)}; a third of the steps, so the policies learn less)`,
};

export function GuideView() {
  useEffect(() => void loadGuide(), []);
  const state = guideState.value;
  const used = guideBackendUsed.value;
  return (
    <>
      <section class="panel" aria-labelledby="guide-title">
        <h2 id="guide-title">Train an agent without its real environment</h2>
        <p>
          DreamGym trains language agents with reinforcement learning on <em>synthetic</em> experience: an experience model, learned
          from a little real experience, plays the environment; the policy trains inside it; and the result is judged in the real
          environment. Here it all runs in this browser, on this machine.
        </p>
        <LoopPicture />
        <p>
          One button runs the loop on the shop with the defaults: about {secs(GUIDE_MEASURED[guideLength.value].total)} on {GUIDE_MEASURED.machine} (<code>npm run bench -- guide{guideLength.value === 'full' ? '' : ` --length ${guideLength.value}`}</code>). It adds {int(guidePlan.value.seedEpisodes)} episodes
          to the <a href="#buffer">buffer</a>, replaces the shop's neural model in <a href="#experience">Experience</a>, and keeps both
          runs in <a href="#runs">Runs</a>.
        </p>
        {state === 'interrupted' && (
          <p class="note" data-testid="guide-interrupted">
            The guided run was interrupted (the page was reloaded or closed). Resume goes on from there: the finished phases are kept, and the
            training runs go on from their last checkpoint.
          </p>
        )}
        <div class="row">
          {state === 'interrupted' ? (
            <>
              <button type="button" class="primary" onClick={() => void runGuide({ resume: true })}>Resume the guided run</button>
              <button type="button" onClick={() => void startOver()}>Start over</button>
            </>
          ) : (
            <button type="button" class="primary" disabled={isRunning.value} onClick={() => void runGuide()}>
              {state === 'idle' ? 'Run it on the shop' : 'Run it again'}
            </button>
          )}
          <button type="button" disabled={state !== 'running'} onClick={() => void stopGuide()}>Stop</button>
          <span class="muted small" role="status" data-testid="guide-state">
            {state === 'running' ? 'Running…' : state === 'stopping' ? 'Stopping…' : state === 'done' ? 'Done.' : state === 'stopped' ? 'Stopped.' : state === 'failed' ? 'Failed.' : state === 'interrupted' ? 'Interrupted.' : ''}
          </span>
        </div>
        {used && <BackendNote backend={used.backend} probe={used.probe} why={guideBackend.value === 'auto' ? undefined : 'chosen under Advanced'} testId="guide-backend-note" />}
        <details class="advanced">
          <summary>Advanced</summary>
          <div class="row">
            <label for="guide-length">Length</label>
            <select id="guide-length" value={guideLength.value} disabled={isRunning.value || state === 'interrupted'} onChange={(e) => { guideLength.value = (e.currentTarget as HTMLSelectElement).value as GuideLength; }}>
              {(Object.keys(GUIDE_LENGTHS) as GuideLength[]).map((length) => <option key={length} value={length}>{LENGTH_CHOICES[length]}</option>)}
            </select>
          </div>
          <BackendSelect id="guide-backend" value={guideBackend.value} disabled={isRunning.value} onChange={(choice) => { guideBackend.value = choice; }} />
          <p class="muted small">WebGPU is the fast choice on a real GPU; a machine whose WebGPU is emulated in software (no GPU) is faster on wasm.</p>
        </details>
        {guideError.value && <p class="error" role="alert">{guideError.value}</p>}
      </section>
      {state !== 'idle' && (
        <section class="panel" aria-labelledby="guide-phases-title">
          <h2 id="guide-phases-title">The run</h2>
          <p class="muted small">Two lanes run at once, each in a worker of its own: the dream's (buffer, model, dream run, comparison) and the real-mode comparison's (the untrained policy judged, then the real run).</p>
          <ol class="guide-phases">
            {GUIDE_PHASES.map((phase) => <PhaseRow key={phase.id} phase={phase} progress={phases.value[phase.id]} />)}
          </ol>
        </section>
      )}
      <Results />
    </>
  );
}
