import { useEffect } from 'preact/hooks';
import { NOISY_EPSILON } from '../../envs/episode.ts';
import { AGENT_HELP, describeRunKind } from './run-kind.ts';
import { TRANSITION_SOURCES, type TransitionSource } from '../../replay/store.ts';
import type { BufferTransition } from '../../services/replay-service.ts';
import {
  applyLimits, capText, clearSearch, deleteRun, evictReal, limitsNote, error, exportFileName, exportFiltered, exportProgress, filter, filterEnv, filteredCount,
  filterSource, importFile, importFileName, importProgress, importResult, importState, jobRunning, keepPersistent,
  nextPage, openView, page, PAGE_SIZE, pageIndex, persistNote, previousPage, query, runSearch, searching, searchResult,
  seedEnv, seedEpisodes, seedMix, seedProblem, seedProgress, seedSeed, seedState, setFilter, startSeeding, stopJob, summary,
} from './buffer-store.ts';

// Every string below that came from a file or an environment is a JSX text child: Preact escapes
// it, so markup in an imported file shows as the characters it is and never runs.

const int = (n: number) => n.toLocaleString('en-US');
/** `1 transition`, `150 transitions`. */
const many = (n: number, noun: string) => `${int(n)} ${noun}${n === 1 ? '' : 's'}`;

function bytes(n: number): string {
  if (n < 1e3) return `${n} B`;
  if (n < 1e6) return `${(n / 1e3).toFixed(1)} kB`;
  if (n < 1e9) return `${(n / 1e6).toFixed(1)} MB`;
  return `${(n / 1e9).toFixed(2)} GB`;
}

function firstLine(text: string): string {
  const line = text.split('\n', 1)[0] ?? '';
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}

function numberInput(id: string, value: number, set: (n: number) => void, min: number) {
  return (
    <input id={id} type="number" min={min} step={1} value={Number.isNaN(value) ? '' : value}
      onInput={(e) => set((e.target as HTMLInputElement).valueAsNumber)} />
  );
}

function Storage() {
  const storage = summary.value?.storage;
  const { usage, quota, persisted, cap } = storage ?? { usage: null, quota: null, persisted: null, cap: null };
  return (
    <section class="panel" aria-labelledby="storage-title">
      <h2 id="storage-title">Storage</h2>
      {usage !== null && quota !== null ? (
        <>
          <label class="progress-label" for="storage-meter" data-testid="storage-usage">
            {bytes(usage)} used of {bytes(quota)} this browser allows the site ({quota > 0 ? ((100 * usage) / quota).toFixed(2) : '0'}%)
          </label>
          <meter id="storage-meter" class="storage-meter" min={0} max={quota} value={usage} />
        </>
      ) : <p class="muted">{storage ? 'This browser does not report how much storage the site uses.' : 'Reading the store…'}</p>}
      <div class="row">
        <span data-testid="persisted">
          {persisted === true
            ? 'Persistent: the browser will not clear this data on its own.'
            : persisted === false
              ? 'Not persistent: when storage runs low the browser may clear it.'
              : 'Persistence: unknown.'}
        </span>
        <button type="button" disabled={persisted === true} onClick={() => void keepPersistent()}>Keep data persistent</button>
      </div>
      {persistNote.value && <p class="muted small" role="status">{persistNote.value}</p>}
      {cap !== null && <p class="muted small">Cap: {int(cap)} transitions; beyond it the oldest synthetic ones are dropped first.</p>}
      <form class="row" onSubmit={(e) => { e.preventDefault(); void applyLimits(); }}>
        <label for="buffer-cap">Cap (transitions; empty for none)</label>
        <input id="buffer-cap" inputMode="numeric" value={capText.value} onInput={(e) => (capText.value = (e.target as HTMLInputElement).value)} />
        <label>
          <input type="checkbox" checked={evictReal.value} onChange={(e) => (evictReal.value = (e.target as HTMLInputElement).checked)} />
          {' '}Also evict real transitions when over the cap
        </label>
        <button type="submit">Apply limits</button>
      </form>
      {limitsNote.value && <p class="muted small" role="status">{limitsNote.value}</p>}
    </section>
  );
}

function Counts() {
  const s = summary.value;
  if (!s) return null;
  const sum = (source: TransitionSource) => s.counts.reduce((n, r) => n + r[source], 0);
  return (
    <section class="panel" aria-labelledby="counts-title">
      <h2 id="counts-title">What the buffer holds</h2>
      <table class="counts">
        <caption class="visually-hidden">Transitions by environment and source</caption>
        <thead><tr><th scope="col">Environment</th><th scope="col">Real</th><th scope="col">Synthetic</th><th scope="col">Total</th></tr></thead>
        <tbody>
          {s.counts.map((r) => (
            <tr key={r.env}>
              <th scope="row">{r.env === 'other' ? 'other environments' : r.env}</th>
              <td data-testid={`count-${r.env}-real`}>{int(r.real)}</td>
              <td data-testid={`count-${r.env}-synthetic`}>{int(r.synthetic)}</td>
              <td>{int(r.real + r.synthetic)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr><th scope="row">All</th><td>{int(sum('real'))}</td><td>{int(sum('synthetic'))}</td><td data-testid="count-total">{int(s.total)}</td></tr>
        </tfoot>
      </table>
      <Runs />
    </section>
  );
}

/** A run's origin in words; the agents it names, with what each is, as tooltips. */
function MadeBy({ kind }: { kind: string }) {
  const { text, agents } = describeRunKind(kind);
  const help = agents.filter((a) => AGENT_HELP[a]).map((a) => `${a}: ${AGENT_HELP[a]}`).join('\n');
  return <span title={help || kind} data-testid="run-kind">{text}</span>;
}

function Runs() {
  const runs = summary.value?.runs ?? [];
  if (runs.length === 0) return <p class="muted small">No runs yet: seed the buffer or import a file.</p>;
  return (
    <details class="runs">
      <summary>Runs ({runs.length})</summary>
      <table class="counts">
        <thead><tr><th scope="col">Run</th><th scope="col">Environment</th><th scope="col">Made by</th><th scope="col">Transitions</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
        <tbody>
          {runs.map((run) => (
            <tr key={run.id}>
              <th scope="row"><code>{run.id}</code></th>
              <td>{run.env}</td>
              <td class="run-kind">
                <MadeBy kind={run.kind} />
              </td>
              <td>{int(run.transitions)}</td>
              <td>
                <button type="button" disabled={jobRunning.value} aria-label={`Delete run ${run.id}`}
                  onClick={() => { if (window.confirm(`Delete run ${run.id} and its ${run.transitions} transitions?`)) void deleteRun(run.id); }}>
                  Delete
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}

const SEED_STATE_TEXT: Partial<Record<string, string>> = { running: 'Seeding', stopping: 'Stopping after this batch' };

function Seed() {
  const envs = summary.value?.envs ?? [seedEnv.value];
  const progress = seedProgress.value;
  const state = seedState.value;
  const running = state === 'running' || state === 'stopping';
  return (
    <section class="panel" aria-labelledby="seed-title">
      <h2 id="seed-title">Seed from the scripted agents</h2>
      <p class="muted small">Real episodes played by scripted agents, in the mix you choose: the oracle shows what success looks like, the others the mistakes and near misses a learner makes.</p>
      <form onSubmit={(e) => { e.preventDefault(); void startSeeding(); }}>
        <fieldset class="plain" disabled={jobRunning.value}>
          <legend class="visually-hidden">Seeding settings</legend>
          <div class="form-grid">
            <label for="seed-env">Environment</label>
            <select id="seed-env" value={seedEnv.value} onChange={(e) => { seedEnv.value = (e.target as HTMLSelectElement).value; }}>
              {envs.map((env) => <option key={env} value={env}>{env}</option>)}
            </select>
            <label for="seed-episodes">Episodes</label>
            {numberInput('seed-episodes', seedEpisodes.value, (n) => { seedEpisodes.value = n; }, 1)}
            <label for="seed-seed">Seed</label>
            {numberInput('seed-seed', seedSeed.value, (n) => { seedSeed.value = n; }, 0)}
          </div>
          {/* Its own row, as wide as the panel: a mix of three agents did not fit a grid cell and was cut. */}
          <div class="row seed-mix">
            <label for="seed-mix">Agent mix</label>
            <input id="seed-mix" type="text" value={seedMix.value} spellcheck={false} aria-describedby="seed-mix-help"
              size={Math.max(24, seedMix.value.length + 2)} onInput={(e) => { seedMix.value = (e.target as HTMLInputElement).value; }} />
          </div>
          <div id="seed-mix-help" class="muted small">
            <p>Shares per agent, like <code>oracle=0.4,noisy=0.3,random=0.3</code>. The agents:</p>
            <ul class="agent-list" data-testid="seed-agents">
              {Object.entries(AGENT_HELP).map(([agent, help]) => (
                <li key={agent}>
                  <code>{agent}</code>: {help}
                  {agent === 'noisy' ? ` (with probability ${NOISY_EPSILON}): its episodes end in the near misses (another product, a wrong option) a model of the reward must learn from` : ''}.
                </li>
              ))}
            </ul>
          </div>
        </fieldset>
        {seedProblem.value && !running && <p class="muted small">{seedProblem.value}</p>}
        <div class="row">
          <button type="submit" class="primary" disabled={jobRunning.value || seedProblem.value !== null}>Seed the buffer</button>
          <button type="button" disabled={state !== 'running'} onClick={() => void stopJob()}>Stop</button>
        </div>
      </form>
      {progress && state !== 'idle' && (
        <>
          <label class="progress-label" for="seed-progress" data-testid="seed-status" aria-live="polite">
            {running
              ? <>{SEED_STATE_TEXT[state]}: {int(progress.episodes)} / {int(progress.total)} episodes · {int(progress.transitions)} transitions</>
              : state === 'error'
                ? <>Seeding failed after {int(progress.episodes)} of {int(progress.total)} episodes; the {int(progress.transitions)} transitions saved before are kept.</>
                : <>{state === 'stopped' ? 'Stopped: seeded' : 'Seeded'} {int(progress.episodes)} of {int(progress.total)} episodes ({int(progress.transitions)} transitions) as run <code>{progress.runId}</code>.</>}
          </label>
          <progress id="seed-progress" max={progress.total} value={progress.episodes} />
        </>
      )}
    </section>
  );
}

function Import() {
  const progress = importProgress.value;
  const state = importState.value;
  const report = importResult.value;
  const running = state === 'running' || state === 'stopping';
  return (
    <section class="panel" aria-labelledby="import-title">
      <h2 id="import-title">Import and export</h2>
      <div class="row">
        <label for="import-file">Import a JSONL file</label>
        <input id="import-file" type="file" accept=".jsonl,application/jsonl,application/x-ndjson" disabled={jobRunning.value}
          onChange={(e) => {
            const input = e.target as HTMLInputElement;
            const file = input.files?.[0];
            input.value = '';
            if (file) void importFile(file);
          }} />
        {running && <button type="button" disabled={state !== 'running'} onClick={() => void stopJob()}>Stop import</button>}
      </div>
      <p class="muted small">One transition per line, as exported here or by the CLI. Good lines are stored; bad ones are skipped and listed; transitions already here are not stored twice, so an import that was stopped or cut short by a reload can simply be run again.</p>
      {progress && running && (
        <>
          <label class="progress-label" for="import-progress" aria-live="polite">
            Reading {importFileName.value}: {bytes(progress.bytesRead)} of {bytes(progress.totalBytes)} · {int(progress.lines)} lines · {int(progress.accepted)} imported{progress.duplicates > 0 ? ` · ${int(progress.duplicates)} already here` : ''} · {int(progress.rejected)} skipped
          </label>
          <progress id="import-progress" max={Math.max(1, progress.totalBytes)} value={progress.bytesRead} />
        </>
      )}
      {report && !running && <ImportReport />}
      <div class="row">
        <button type="button" disabled={exportProgress.value !== null} onClick={() => void exportFiltered()}>Export JSONL</button>
        <span class="muted small">Downloads <code>{exportFileName.value}</code>: the {int(filteredCount.value)} transitions the filter under Transitions selects.</span>
      </div>
      {exportProgress.value && (
        <>
          <label class="progress-label" for="export-progress" aria-live="polite">
            Exporting: {int(exportProgress.value.written)} / {int(exportProgress.value.total)} transitions
          </label>
          <progress id="export-progress" max={Math.max(1, exportProgress.value.total)} value={exportProgress.value.written} />
        </>
      )}
    </section>
  );
}

function ImportReport() {
  const report = importResult.value;
  if (!report) return null;
  const more = report.rejectedCount - report.rejected.length;
  return (
    <div class="import-report" data-testid="import-report">
      <p role="status">
        {report.fileName}: <strong data-testid="import-accepted">{int(report.accepted)}</strong> transitions imported from {int(report.lines)} lines
        {report.duplicates > 0 && <>; <strong data-testid="import-duplicates">{int(report.duplicates)}</strong> already in the buffer, not stored again</>}
        {report.rejectedCount > 0 ? <>; <strong data-testid="import-rejected">{int(report.rejectedCount)}</strong> bad lines skipped</> : '; no bad lines'}
        {report.stopped ? ' (stopped before the end of the file).' : '.'}
      </p>
      {report.rejected.length > 0 && (
        <ul class="problems" aria-label="Bad lines">
          {report.rejected.map((p) => <li key={p.line}>line {p.line}: {p.problem}</li>)}
          {more > 0 && <li class="muted">… and {int(more)} more bad lines</li>}
        </ul>
      )}
    </div>
  );
}

function TransitionItem({ t }: { t: BufferTransition }) {
  return (
    <li class="transition">
      <p class="small muted transition-meta">
        #{t.id} · {t.env} · {t.source} · run <code>{t.runId}</code> · reward {Number(t.reward.toPrecision(4))}{t.done ? ' · done' : ''}
      </p>
      <p class="transition-instruction">{t.instruction}</p>
      <div class="sas">
        <details>
          <summary>State: {firstLine(t.state.text)}</summary>
          <pre class="state raw" tabIndex={0}>{t.state.text}</pre>
        </details>
        <span class="arrow" aria-hidden="true">→</span>
        <span><span class="visually-hidden">Action: </span><code class="transition-action">{t.action}</code></span>
        <span class="arrow" aria-hidden="true">→</span>
        <details>
          <summary>Next state: {firstLine(t.next.text)}</summary>
          <pre class="state raw" tabIndex={0}>{t.next.text}</pre>
        </details>
      </div>
    </li>
  );
}

function Transitions() {
  const envs = summary.value?.envs ?? [];
  const found = searchResult.value;
  const shown = found ? found.items : page.value?.items ?? [];
  const from = pageIndex.value * PAGE_SIZE + 1;
  const filtered = Object.keys(filter.value).length > 0;
  return (
    <section class="panel" aria-labelledby="transitions-title">
      <h2 id="transitions-title">Transitions</h2>
      <div class="row">
        <label for="filter-env">Filter by environment</label>
        <select id="filter-env" value={filterEnv.value} onChange={(e) => void setFilter({ env: (e.target as HTMLSelectElement).value })}>
          <option value="">All environments</option>
          {envs.map((env) => <option key={env} value={env}>{env}</option>)}
        </select>
        <label for="filter-source">Filter by source</label>
        <select id="filter-source" value={filterSource.value} onChange={(e) => void setFilter({ source: (e.target as HTMLSelectElement).value as TransitionSource | '' })}>
          <option value="">All sources</option>
          {TRANSITION_SOURCES.map((source) => <option key={source} value={source}>{source}</option>)}
        </select>
      </div>
      <form class="row" role="search" onSubmit={(e) => { e.preventDefault(); void runSearch(); }}>
        <label for="search-text">Search text</label>
        <input id="search-text" type="search" value={query.value} placeholder="words in the instruction, state or action"
          onInput={(e) => { query.value = (e.target as HTMLInputElement).value; }} />
        <button type="submit" disabled={searching.value}>{searching.value ? 'Searching…' : 'Search'}</button>
        {found && <button type="button" onClick={clearSearch}>Clear search</button>}
      </form>
      <p class="muted" role="status" data-testid="list-status">
        {found
          ? <>{many(found.total, 'transition')} {found.total === 1 ? 'matches' : 'match'} “{found.query}”{found.total > found.items.length ? <> (the best {found.items.length} shown)</> : null}{filtered ? ' within the filter' : ''}.</>
          : shown.length > 0
            ? <>Transitions {int(from)}–{int(from + shown.length - 1)} of {int(filteredCount.value)}{filtered ? ' matching the filter' : ''}, oldest first.</>
            : filtered ? 'No transitions match the filter.' : 'No transitions yet: seed the buffer or import a file.'}
      </p>
      <ol class="transitions" data-testid="transition-list">
        {shown.map((t) => <TransitionItem key={t.id} t={t} />)}
      </ol>
      {!found && (
        <div class="row">
          <button type="button" disabled={pageIndex.value === 0} onClick={() => void previousPage()}>Previous page</button>
          <button type="button" disabled={page.value?.next === null || page.value === null} onClick={() => void nextPage()}>Next page</button>
        </div>
      )}
    </section>
  );
}

export function BufferView() {
  useEffect(() => { void openView(); }, []);
  return (
    <>
      {error.value && <p class="error" role="alert">{error.value}</p>}
      <Storage />
      <Counts />
      <Seed />
      <Import />
      <Transitions />
    </>
  );
}
