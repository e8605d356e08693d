import { useEffect } from 'preact/hooks';
import { envs } from '../env-client.ts';
import { LivePage } from '../LivePage.tsx';
import { ActionPanel } from './ActionPanel.tsx';
import { EpisodeStatus } from './EpisodeStatus.tsx';
import { whyInvalid } from './invalid-action.ts';
import {
  act, autoplay, busy, chooseEnv, currentEnv, ensureEnvs, episode, error, isDone, lastResult, log, observation,
  oracleStep, playShown, recorded, recording, selectedEnv, selectedSplit, splitSize, startEpisode, taskIndex, totalReward, watchOracle,
} from './play-store.ts';
import { EpisodeColumns } from './EpisodeColumns.tsx';
import { SiteFolderPicker } from './SiteFolderPicker.tsx';
import { Transcript } from './Transcript.tsx';

function EnvPicker() {
  return (
    <section class="panel" aria-labelledby="envs-title">
      <h2 id="envs-title">Environments</h2>
      <div class="env-cards">
        {envs.value.map((env) => (
          <button key={env.name} type="button" class={`env-card${env.name === selectedEnv.value ? ' selected' : ''}`}
            aria-pressed={env.name === selectedEnv.value} onClick={() => chooseEnv(env.name)}>
            <strong>{env.name}</strong>
            <span>{env.description}</span>
            <span class="muted small">{env.splits.map((s) => `${s.name}: ${s.size}`).join(' · ')}</span>
          </button>
        ))}
      </div>
      <form class="row" onSubmit={(e) => { e.preventDefault(); void startEpisode(); }}>
        <label for="split">Split</label>
        <select id="split" value={selectedSplit.value} onChange={(e) => { selectedSplit.value = (e.target as HTMLSelectElement).value; taskIndex.value = 0; }}>
          {currentEnv.value?.splits.map((s) => <option key={s.name} value={s.name}>{s.name}</option>)}
        </select>
        <label for="task-index">Task</label>
        <input id="task-index" type="number" min={0} max={Math.max(0, splitSize.value - 1)} value={taskIndex.value}
          onInput={(e) => { taskIndex.value = Number((e.target as HTMLInputElement).value); }} />
        <button type="button" onClick={() => { taskIndex.value = Math.floor(Math.random() * splitSize.value); }}>Random task</button>
        <button type="submit" class="primary" disabled={busy.value && !autoplay.value}>Start episode</button>
      </form>
      {currentEnv.value?.actionSyntax === 'page' && <SiteFolderPicker />}
    </section>
  );
}

function Status() {
  const last = lastResult.value;
  // The env's words for why (not well-formed, not on this page, does not apply here): the status is what a screen reader announces.
  const why = last ? whyInvalid(last) : null;
  return (
    <EpisodeStatus last={last} steps={log.value.length} totalReward={totalReward.value} testId="status"
      ongoing={why === null ? 'Choose an action.' : `That action is not valid here. ${why}`} />
  );
}

function RecordSwitch() {
  return (
    <div class="row">
      <label>
        <input type="checkbox" checked={recording.value} onChange={(e) => { recording.value = (e.target as HTMLInputElement).checked; }} />
        {' '}Record the steps played into the replay buffer (real transitions: a demonstration)
      </label>
      {recorded.value > 0 && <span class="muted small" data-testid="recorded">{recorded.value} recorded in this session's demonstration run</span>}
    </div>
  );
}

/** The task, its controls and its status; the live page (web) and the state come after it. */
function TaskPanel() {
  const ep = episode.value;
  if (!ep || !observation.value) return <p class="muted">Start an episode to play it yourself, or let the oracle show how.</p>;
  return (
    <section class="panel" aria-labelledby="task-title">
      <h2 id="task-title">Task <span class="muted small">{ep.task.id} · difficulty {ep.task.difficulty}</span></h2>
      <p class="instruction" data-testid="instruction">{ep.task.instruction}</p>
      <div class="row">
        <button type="button" disabled={busy.value || isDone.value} onClick={() => void oracleStep()}>Oracle: next step</button>
        {autoplay.value
          ? <button type="button" onClick={() => { autoplay.value = false; }}>Pause the oracle</button>
          : <button type="button" disabled={busy.value} onClick={() => void watchOracle()}>Watch the oracle play</button>}
      </div>
      <RecordSwitch />
      <Status />
    </section>
  );
}

function Episode() {
  const ep = episode.value;
  const obs = observation.value;
  if (!ep || !obs) return null;
  return (
    <>
      <EpisodeColumns idPrefix="play" stateTitle="What the agent sees" text={obs.text} actTitle="Act">
        <ActionPanel key={obs.text} actions={obs.actions} stateText={obs.text} syntax={envs.value.find((e) => e.name === ep.task.env)?.actionSyntax ?? 'web'} disabled={busy.value || isDone.value || autoplay.value} onAct={(a) => void act(a)} />
      </EpisodeColumns>
      <Transcript entries={log.value} titleId="transcript-title" />
    </>
  );
}

export function PlayView() {
  useEffect(() => { void ensureEnvs(); }, []);
  return (
    <>
      {error.value && <p class="error" role="alert">{error.value}</p>}
      <EnvPicker />
      <TaskPanel />
      {currentEnv.value?.actionSyntax === 'page' && (
        <LivePage titleId="live-page-title" title="The live page" interactive onShown={(shown) => { playShown.value = shown; }}
          hint="Act on the page itself or choose an action beside the state: a click on a control is played as the agent's action, and what you type into a field is played when you press Enter or leave the field." />
      )}
      <Episode />
    </>
  );
}
