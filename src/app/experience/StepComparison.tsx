import { whyInvalid } from '../play/invalid-action.ts';
import { StateView } from '../play/StateView.tsx';
import { stateMarks } from '../play/state-diff.ts';
import type { ExampleSummary, ExperienceStep, FidelityMeter } from '../../services/experience-protocol.ts';
import type { EventFidelity } from '../../experience/fidelity.ts';

// Everything here came from an environment, a model or the buffer: JSX text children, never HTML.

const num = (x: number, digits = 2) => (Number.isFinite(x) ? x.toFixed(digits) : '—');

function Outcome({ reward, done, testId }: { reward: number; done: boolean; testId: string }) {
  return (
    <p class="outcome" data-testid={testId}>
      Reward <strong>{num(reward)}</strong> · {done ? 'episode ends' : 'episode goes on'}
    </p>
  );
}

function Examples({ examples }: { examples: readonly ExampleSummary[] }) {
  if (examples.length === 0) return <p class="muted small">No real transitions were retrieved for this step.</p>;
  return (
    <details class="advanced">
      <summary>The {examples.length} retrieved real transition{examples.length === 1 ? '' : 's'} the model saw</summary>
      <ol class="examples">
        {examples.map((e) => (
          <li key={e.id}>
            <p class="small muted">#{e.id} · run <code>{e.runId}</code> · reward {num(e.reward)}{e.done ? ' · done' : ''}</p>
            <p class="small">{e.instruction}</p>
            <div class="sas">
              <pre class="state raw" tabIndex={0}>{e.state}</pre>
              <span class="arrow" aria-hidden="true">→</span>
              <code>{e.action}</code>
              <span class="arrow" aria-hidden="true">→</span>
              <pre class="state raw" tabIndex={0}>{e.next}</pre>
            </div>
          </li>
        ))}
      </ol>
    </details>
  );
}

/** The last step: the model's answer beside the real environment's, and how close they are. */
export function StepComparison({ step }: { step: ExperienceStep }) {
  const { predicted, real, score } = step;
  // An inadmissible action is never put to the model: its failure state is not the model's failing.
  const asked = step.admissible !== null;
  const unusable = asked && !predicted.valid;
  const imagined = stateMarks(predicted.next.text, real.observation.text);
  const actual = stateMarks(real.observation.text, predicted.next.text);
  return (
    <section class="panel" aria-labelledby="comparison-title">
      <h2 id="comparison-title">Step {step.index}: <code>{step.action}</code></h2>
      {!asked && (
        <p class="warning small">Not an admissible action here: the simulator ends in its failure state without asking the model (as in the paper), and the real environment ignores it. This step is not scored.</p>
      )}
      {score && (
        <dl class="metrics step-scores" data-testid="step-scores">
          <div><dt>Next-state F1</dt><dd data-testid="step-next-f1">{num(score.nextStateF1)}</dd></div>
          <div><dt>Action-set F1</dt><dd data-testid="step-action-f1">{num(score.actionSetF1)}</dd></div>
          <div><dt>Reward error</dt><dd>{num(score.rewardError)}</dd></div>
          <div><dt>Done</dt><dd>{score.doneRight ? 'right' : 'wrong'}</dd></div>
          <div><dt>Next state</dt><dd>{score.sameNextState ? 'exactly the real one' : 'differs from the real one'}</dd></div>
        </dl>
      )}
      <p class="small" data-testid="state-diff-summary">
        {imagined.differing === 0 && actual.differing === 0
          ? 'The imagined next state is line for line the real one.'
          : <>Marked <span class="diff-mark" aria-hidden="true">≠</span> below: {imagined.differing} of the {imagined.total} imagined lines and {actual.differing} of
            {' '}the {actual.total} real lines have no match in the other state (lines are compared whole, wherever they are).</>}
      </p>
      <div class="columns compare">
        <section class="panel" aria-labelledby="predicted-title" data-testid="predicted">
          <h3 id="predicted-title">Experience model <span class="muted small">{step.experience}</span></h3>
          {!asked && <p class="muted small" data-testid="predicted-not-asked">Not asked: the action is not admissible, so the simulator ends in its failure state.</p>}
          {unusable && <p class="warning small" data-testid="predicted-problem">Unusable: {predicted.problem ?? 'the model gave no valid prediction'}</p>}
          {unusable && predicted.reply !== undefined && (
            <details class="advanced" open>
              <summary>What the model answered last</summary>
              <pre class="state raw" data-testid="predicted-reply">{predicted.reply === '' ? '(an empty reply)' : predicted.reply}</pre>
            </details>
          )}
          {predicted.reasoning && (
            <>
              <h4>Reasoning</h4>
              <p class="reasoning" data-testid="predicted-reasoning">{predicted.reasoning}</p>
            </>
          )}
          <Outcome reward={predicted.reward} done={predicted.done} testId="predicted-outcome" />
          <h4>Next state</h4>
          <StateView text={predicted.next.text} label="Predicted next state" testId="predicted-next" compareWith={real.observation.text} />
          <p class="small muted">{predicted.next.actions.length} admissible action{predicted.next.actions.length === 1 ? '' : 's'} predicted</p>
          <Examples examples={step.examples} />
        </section>
        <section class="panel" aria-labelledby="real-title" data-testid="real">
          <h3 id="real-title">Real environment</h3>
          {/* Why, in the env's own words (not well-formed, not on this page, does not apply here), as the Play view says it. */}
          {!real.info.valid && <p class="warning small" data-testid="real-invalid">The real environment did not accept the action. {whyInvalid(real)}</p>}
          <Outcome reward={real.reward} done={real.done} testId="real-outcome" />
          <h4>Next state</h4>
          <StateView text={real.observation.text} label="Real next state" testId="real-next" compareWith={predicted.next.text} />
          <p class="small muted">{real.observation.actions.length} admissible action{real.observation.actions.length === 1 ? '' : 's'}</p>
        </section>
      </div>
    </section>
  );
}

function Gauge({ label, value, testId, better = 'high' }: { label: string; value: number; testId: string; better?: 'high' | 'low' }) {
  const id = `gauge-${testId}`;
  return (
    <div class="gauge">
      <label for={id}>{label}</label>
      <meter id={id} min={0} max={1} value={value} {...(better === 'high' ? { low: 0.5, high: 0.8, optimum: 1 } : { low: 0.2, high: 0.5, optimum: 0 })} />
      <span class="gauge-value" data-testid={testId}>{num(value)}</span>
    </div>
  );
}

const stepsText = (n: number) => `${n} step${n === 1 ? '' : 's'}`;

/**
 * Running means over the scored steps since the backend was chosen (or the meter reset), which may
 * span episodes: before this episode's first step it says so rather than show an earlier
 * episode's means as if they were this one's.
 */
export function FidelityMeterPanel({ meter, episodeSteps, onReset, disabled }: { meter: FidelityMeter | null; episodeSteps: number; onReset: () => void; disabled: boolean }) {
  const earlier = meter ? meter.steps + meter.unscored - episodeSteps : 0;
  return (
    <section class="panel" aria-labelledby="meter-title">
      <h2 id="meter-title">Fidelity meter</h2>
      {!meter || meter.steps === 0 || episodeSteps === 0 ? (
        <p class="muted" data-testid="meter-empty">
          {episodeSteps === 0 ? 'No step scored yet in this episode.' : 'No scored steps yet.'}
          {' '}Each step the model predicts from the real state and is compared with what the real environment does.
          {meter && meter.unscored > 0 && episodeSteps > 0 ? ` (${stepsText(meter.unscored)} with an action that was not admissible, not scored.)` : ''}
          {meter && episodeSteps === 0 && earlier > 0 ? ` The meter keeps the ${stepsText(meter.steps)} scored in earlier episodes with this model; they show again with this episode's first step (Reset the meter to start over).` : ''}
        </p>
      ) : (
        <>
          <p class="small" data-testid="meter-summary">
            Mean over <strong data-testid="meter-steps">{meter.steps}</strong> scored step{meter.steps === 1 ? '' : 's'}
            {earlier > 0 ? ` (${stepsText(episodeSteps)} of this episode, the rest from earlier episodes with this model)` : ''}
            {meter.unscored > 0 ? ` (${meter.unscored} not scored: action not admissible)` : ''}
            {meter.invalidOutputs > 0 ? ` · ${meter.invalidOutputs} unusable model output${meter.invalidOutputs === 1 ? '' : 's'}` : ''}.
          </p>
          <div class="gauges">
            <Gauge label="Next-state token F1" value={meter.nextStateF1} testId="meter-next-f1" />
            <Gauge label="Admissible-action set F1" value={meter.actionSetF1} testId="meter-action-f1" />
            <Gauge label="Reward accuracy (±0.05)" value={meter.rewardAccuracy} testId="meter-reward-accuracy" />
            <Gauge label="Reward mean abs. error (ε_R)" value={meter.rewardMae} testId="meter-reward-mae" better="low" />
            <Gauge label="Done accuracy" value={meter.doneAccuracy} testId="meter-done-accuracy" />
            <Gauge label="Exact next state (1 − ε_P)" value={meter.exactNextState} testId="meter-exact" />
          </div>
          <p class="small" data-testid="meter-events">
            Events, real against predicted (rare, so averages hide them): <EventLine name="success" event={meter.success} testId="meter-success" />;{' '}
            <EventLine name="episode end" event={meter.done} testId="meter-done" />.
          </p>
        </>
      )}
      <div class="row">
        <button type="button" disabled={disabled || !meter || meter.steps + meter.unscored === 0} onClick={onReset}>Reset the meter</button>
      </div>
    </section>
  );
}

/** One event's counts, precision and recall ("—" with nothing to divide by). */
function EventLine({ name, event, testId }: { name: string; event: EventFidelity; testId: string }) {
  const share = (x: number | null) => (x === null ? '—' : `${(x * 100).toFixed(0)}%`);
  return (
    <span data-testid={testId}>
      {name} {event.real} real, {event.predicted} predicted, precision {share(event.precision)}, recall {share(event.recall)}
    </span>
  );
}

/** Every step so far, one line each. */
export function StepHistory({ steps }: { steps: readonly ExperienceStep[] }) {
  if (steps.length < 2) return null;
  return (
    <section class="panel" aria-labelledby="history-title">
      <h2 id="history-title">Steps so far</h2>
      <ol class="transcript">
        {steps.map((s) => (
          <li key={s.index} class={s.score ? '' : 'invalid'}>
            <code>{s.action}</code>
            {' → '}
            {s.score
              ? `next-state F1 ${num(s.score.nextStateF1)} · action-set F1 ${num(s.score.actionSetF1)} · reward ${num(s.predicted.reward)} predicted, ${num(s.real.reward)} real`
              : 'not admissible (not scored)'}
            {/* A step the model's answer was unusable for is scored as its failure state: without this it reads as a poor prediction. */}
            {s.score && !s.predicted.valid ? ' · the model\'s answer was unusable' : ''}
          </li>
        ))}
      </ol>
    </section>
  );
}
