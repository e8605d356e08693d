import { useEffect, useState } from 'preact/hooks';
import { envs } from '../env-client.ts';
import { ActionPanel } from '../play/ActionPanel.tsx';
import { EpisodeColumns } from '../play/EpisodeColumns.tsx';
import { ExperiencePicker } from './ExperiencePicker.tsx';
import { active, busy, error, meter, modelStats, note, selectedEnv, selectedSplit, taskIndex } from './experience-state.ts';
import { act, bufferCounts, chooseEnv, currentEnv, episode, isDone, lastStep, observation, openView, resetMeter, splitSize, startEpisode, stepping, steppingSince, steps, stopStep } from './experience-store.ts';
import { connectJoinedRoom, joinRoomFromLocation } from './join-room.ts';
import { FidelityMeterPanel, StepComparison, StepHistory } from './StepComparison.tsx';

/**
 * The Experience view: pick an experience model, then step it by hand beside the real environment.
 * Each step the model predicts from the real current state (teacher forcing) and the real
 * environment takes the same action, so every comparison is fair; the meter averages them.
 */

function BufferNote() {
  const counts = bufferCounts.value;
  if (!counts) return null;
  if (counts.real === 0) {
    return (
      <p class="warning" data-testid="buffer-note">
        The replay buffer holds no real {counts.env} transitions, so the model has no examples to go on (and kNN cannot answer):
        {' '}<a href="#buffer">seed the buffer first</a> in the Buffer view.
      </p>
    );
  }
  return (
    <p class="muted small" data-testid="buffer-note">
      Retrieval draws on the {counts.real.toLocaleString('en-US')} real {counts.env} transitions in the replay buffer (<a href="#buffer">Buffer view</a>).
    </p>
  );
}

function TaskPicker() {
  const running = busy.value;
  return (
    <section class="panel" aria-labelledby="exp-task-title">
      <h2 id="exp-task-title">Task</h2>
      <form class="row" onSubmit={(e) => { e.preventDefault(); void startEpisode(); }}>
        <label for="exp-env">Environment</label>
        <select id="exp-env" value={selectedEnv.value} disabled={running} onChange={(e) => chooseEnv((e.target as HTMLSelectElement).value)}>
          {envs.value.map((env) => <option key={env.name} value={env.name}>{env.name}</option>)}
        </select>
        <label for="exp-split">Split</label>
        <select id="exp-split" value={selectedSplit.value} disabled={running}
          onChange={(e) => { selectedSplit.value = (e.target as HTMLSelectElement).value; taskIndex.value = 0; }}>
          {currentEnv.value?.splits.map((s) => <option key={s.name} value={s.name}>{s.name} ({s.size})</option>)}
        </select>
        <label for="exp-task">Task</label>
        <input id="exp-task" type="number" min={0} max={Math.max(0, splitSize.value - 1)} value={taskIndex.value} disabled={running}
          onInput={(e) => { taskIndex.value = Number((e.target as HTMLInputElement).value); }} />
        <button type="button" disabled={running} onClick={() => { taskIndex.value = Math.floor(Math.random() * splitSize.value); }}>Random task</button>
        <button type="submit" class="primary" disabled={running || envs.value.length === 0}>Start episode</button>
      </form>
      <BufferNote />
    </section>
  );
}

function StepStatus() {
  const last = lastStep.value;
  const message = stepping.value
    ? `Asking ${active.value.name}…`
    : last?.real.done
      ? `Episode over in the real environment after ${last.index} step${last.index === 1 ? '' : 's'} (reward ${last.real.reward.toFixed(2)}). Start another to go on.`
      : 'Choose an action: the model and the real environment both take it from the state shown.';
  return (
    <div class="row">
      <p class="status" role="status" aria-live="polite"><span data-testid="experience-status">{message}</span></p>
      {stepping.value && steppingSince.value !== null && <Waited since={steppingSince.value} limitMs={active.value.requestTimeoutMs} />}
      {stepping.value && <button type="button" onClick={() => void stopStep()}>Stop</button>}
    </div>
  );
}

/**
 * Seconds spent waiting on the model, counted each second: a slow answer and a server that never
 * answers look alike otherwise. With an endpoint, also how long it has before the request is given
 * up (the error then says so), so a person knows the wait ends. Outside the live region, so a
 * screen reader is not told every tick.
 */
function Waited({ since, limitMs }: { since: number; limitMs: number | undefined }) {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [since]);
  return (
    <span class="muted small">
      <span data-testid="experience-waited">waiting {Math.max(0, Math.floor((now - since) / 1000))} s</span>
      {limitMs !== undefined && <span data-testid="experience-wait-limit"> (the endpoint has {Math.round(limitMs / 1000)} s to answer each request)</span>}
    </span>
  );
}

function ModelStats() {
  const stats = modelStats.value;
  if (!stats || stats.predictions === 0) return null;
  const decode = stats.rateReports > 0 ? ` · ${(stats.decodeTokensPerSecondSum / stats.rateReports).toFixed(1)} tokens/s decoding` : '';
  return (
    <p class="muted small">
      Model calls: {stats.predictions} predictions · {stats.retries} retries · {stats.repaired} repaired · {stats.invalidOutputs} unusable
      {stats.completionTokens > 0 ? ` · ${stats.promptTokens.toLocaleString('en-US')} prompt and ${stats.completionTokens.toLocaleString('en-US')} answer tokens` : ''}{decode}
    </p>
  );
}

function Episode() {
  const ep = episode.value;
  const obs = observation.value;
  if (!ep || !obs) return <p class="muted">Start an episode: you choose the actions, and see the experience model's prediction beside the real environment's answer.</p>;
  const syntax = envs.value.find((e) => e.name === ep.task.env)?.actionSyntax ?? 'web';
  return (
    <>
      <section class="panel" aria-labelledby="exp-episode-title">
        <h2 id="exp-episode-title">Episode <span class="muted small">{ep.task.id} · {ep.split} #{ep.index} · step limit {ep.maxSteps}</span></h2>
        <p class="instruction" data-testid="experience-instruction">{ep.task.instruction}</p>
        <StepStatus />
        <ModelStats />
      </section>
      <EpisodeColumns idPrefix="exp" stateTitle="The real current state" text={obs.text} actTitle="Act">
        <ActionPanel key={obs.text} actions={obs.actions} stateText={obs.text} syntax={syntax} disabled={busy.value || isDone.value} onAct={(a) => void act(a)} />
      </EpisodeColumns>
    </>
  );
}

export function ExperienceView() {
  useEffect(() => {
    // Opened from a room's link (or given one while open): its endpoint becomes this view's backend.
    const join = () => {
      if (joinRoomFromLocation()) void connectJoinedRoom();
    };
    const joined = joinRoomFromLocation();
    void openView().then(() => (joined ? connectJoinedRoom() : undefined));
    window.addEventListener('hashchange', join);
    return () => window.removeEventListener('hashchange', join);
  }, []);
  const last = lastStep.value;
  return (
    <>
      {error.value && <p class="error" role="alert" data-testid="experience-error">{error.value}</p>}
      {note.value && <p class="note" role="status">{note.value}</p>}
      <ExperiencePicker />
      <TaskPicker />
      <Episode />
      {last && <StepComparison step={last} />}
      {episode.value && <FidelityMeterPanel meter={meter.value} episodeSteps={steps.value.length} onReset={() => void resetMeter()} disabled={busy.value} />}
      <StepHistory steps={steps.value} />
    </>
  );
}
