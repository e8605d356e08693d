import { useEffect } from 'preact/hooks';
import type { CurriculumViewRow } from '../../services/trainer-service.ts';
import { formatNumber } from '../train/LiveChart.tsx';
import {
  AUTO_REFRESH_EVERY, autoRefresh, emptyReason, error, generatedOnly, isActive, iterations, latest, loading, PAGE, refreshCurriculum, shown, shownRun, snapshot, sortBy,
  sortDirection, sortKey, visibleRows, type SortKey,
} from './curriculum-store.ts';

// Instructions are generated text: JSX text children, which Preact escapes, never HTML.

const int = (n: number) => n.toLocaleString('en-US');

/** A long instruction cut for a side column; the whole text stays in the tooltip. */
function short(text: string, max = 90): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
const pct = (n: number | null) => (n === null ? '—' : `${(100 * n).toFixed(1)}%`);

function Empty() {
  const reason = emptyReason.value;
  const running = isActive.value;
  return (
    <section class="panel" aria-labelledby="curriculum-empty-title">
      <h2 id="curriculum-empty-title">No curriculum to show</h2>
      <p data-testid="curriculum-empty">
        {reason === 'no-run'
          ? <>No run has started in this page yet. </>
          : <>The {running ? 'current' : 'last'} run chooses its tasks uniformly, without a curriculum. </>}
        Open <a href="#train">Train</a>, tick <strong>Curriculum</strong> (and choose λ, the largest share of generated tasks in
        an iteration), then start a run: this table then lists the tasks the curriculum keeps, with how often each was tried,
        its success rate and its outcome variance under the current policy.
      </p>
    </section>
  );
}

/**
 * What the variances are computed over, and, when no task's varies, that the curriculum then
 * chooses nothing by variance (said plainly: a column of 0.000 reads as a broken table).
 */
function VarianceNote() {
  const snap = snapshot.value;
  if (!snap) return null;
  const { outcome, outcomeInUse } = snap.summary;
  const measured = snap.rows.filter((r) => r.variance !== null);
  const allZero = measured.length > 0 && measured.every((r) => r.variance === 0);
  const dream = shownRun.value?.request.mode === 'dream';
  const alike = dream
    ? 'every episode of each task ended alike inside the experience model'
    : 'every episode of each task ended alike (all solved, or all failed)';
  return (
    <>
      {outcomeInUse !== outcome && (
        <p class="small" data-testid="curriculum-fallback">
          No task's {outcome} varies yet under the current policy ({alike}), so the variances are computed over the episodes'
          {' '}<strong>{outcomeInUse}</strong> instead, which still tells the tasks apart.
        </p>
      )}
      {allZero && (
        <p class="warning small" data-testid="curriculum-all-zero">
          Every task's variance is 0 so far: {alike}{outcome === 'success' && outcomeInUse === 'success' ? ', with the same return too' : ''}. So the
          {' '}curriculum chooses no task by variance and generates no variation: it draws tasks as it would without a curriculum until outcomes differ.
        </p>
      )}
    </>
  );
}

function Summary() {
  const snap = snapshot.value;
  const run = shownRun.value;
  const request = run?.request ?? null;
  const m = latest.value?.curriculum;
  return (
    <section class="panel" aria-labelledby="curriculum-title">
      <h2 id="curriculum-title">Curriculum <span class="muted small">{request ? `${run?.guided ? 'the guided run\'s dream · ' : ''}${request.env} · ${request.algo.toUpperCase()} · seed ${request.seed}` : ''}</span></h2>
      {snap ? (
        <p data-testid="curriculum-summary">
          Pool of <strong>{int(snap.summary.pool)}</strong> tasks, <strong>{int(snap.summary.generatedInPool)}</strong> generated ·
          λ {snap.summary.lambda} · generator <code>{snap.summary.generator}</code> · groups by {snap.summary.grouping === 'task' ? 'task (GRPO)' : 'embedding cluster (PPO)'} ·
          variance of the {snap.summary.outcomeInUse === 'return' ? 'return' : 'success (0 or 1)'} · as of iteration {snap.iterations}
          {snap.summary.generatorStats.syntheticOnly > 0 && <> · {int(snap.summary.generatorStats.syntheticOnly)} synthetic-only variations made</>}
        </p>
      ) : (
        <p class="muted" data-testid="curriculum-summary">
          {iterations.value === 0 ? 'The table fills after the run\'s first iteration.' : 'Reading the curriculum…'}
        </p>
      )}
      {m && (
        <p class="muted small" data-testid="curriculum-last-iteration">
          Last iteration: {m.byVariance} task slots by variance (mean {formatNumber(m.meanVariance)}), {m.explored} never tried, {m.generated} generated; {m.newTasks} new variations.
          {m.byVariance === 0 && ' No slot went by variance: no task the curriculum measured had outcomes that differ.'}
        </p>
      )}
      <VarianceNote />
      <div class="row">
        <button type="button" onClick={() => void refreshCurriculum()} disabled={loading.value || iterations.value === 0}>
          {loading.value ? 'Refreshing…' : 'Refresh'}
        </button>
        <label>
          <input type="checkbox" checked={generatedOnly.value} onChange={(e) => { generatedOnly.value = (e.target as HTMLInputElement).checked; shown.value = PAGE; }} />
          {' '}Generated only
        </label>
        {isActive.value && <span class="muted small">Refreshes itself every {AUTO_REFRESH_EVERY} iterations while this view is open.</span>}
      </div>
    </section>
  );
}

function SortHeader({ label, sortKey: key }: { label: string; sortKey: SortKey }) {
  const active = sortKey.value === key;
  const direction = sortDirection.value;
  return (
    <th scope="col" aria-sort={active ? direction : 'none'}>
      <button type="button" class="sort" onClick={() => sortBy(key)}>
        {label}<span aria-hidden="true">{active ? (direction === 'descending' ? ' ▼' : ' ▲') : ''}</span>
      </button>
    </th>
  );
}

function Origin({ row }: { row: CurriculumViewRow }) {
  return (
    <>
      {row.origin === 'generated' ? <span class="badge generated">generated</span> : <span class="muted">seed</span>}
      {row.syntheticOnly && <> <span class="badge synthetic">synthetic-only</span></>}
    </>
  );
}

function Table() {
  const snap = snapshot.value;
  if (!snap) return null;
  const rows = visibleRows.value;
  const page = rows.slice(0, shown.value);
  return (
    <section class="panel" aria-labelledby="curriculum-tasks-title">
      <h2 id="curriculum-tasks-title">Tasks <span class="muted small">{int(rows.length)} {generatedOnly.value ? 'generated ' : ''}of {int(snap.total)} in the pool</span></h2>
      <p class="muted small">
        Variance is the outcome variance of the task's group under the newest policy version that played it (for PPO the
        group is the task's embedding cluster, for GRPO the task itself): tasks the policy sometimes solves and sometimes not
        have the most to teach. Sort by a column with its header.
      </p>
      {rows.length === 0 ? (
        <p class="muted">{generatedOnly.value ? 'No generated tasks yet: variations come from tasks whose outcomes vary.' : 'The pool is empty.'}</p>
      ) : (
        <div class="table-scroll">
          <table class="counts curriculum-table" data-testid="curriculum-table">
            <caption class="visually-hidden">The curriculum's tasks with their statistics</caption>
            <thead>
              <tr>
                <th scope="col">Instruction</th>
                <th scope="col">Origin</th>
                <th scope="col">Parent</th>
                <SortHeader label="Attempts" sortKey="attempts" />
                <SortHeader label="Success" sortKey="successRate" />
                <SortHeader label="Variance" sortKey="variance" />
                <SortHeader label="Difficulty" sortKey="difficulty" />
                <SortHeader label="Policy version" sortKey="policyVersion" />
              </tr>
            </thead>
            <tbody>
              {page.map((row) => (
                <tr key={row.id} data-origin={row.origin}>
                  <th scope="row" class="instruction-cell">
                    {row.instruction}
                    <div class="muted small"><code>{row.id}</code></div>
                  </th>
                  <td class="origin-cell"><Origin row={row} /></td>
                  <td class="parent-cell">
                    {row.parentId
                      ? <>
                          {row.parentInstruction !== null
                            ? <span title={row.parentInstruction}>{short(row.parentInstruction)}</span>
                            : <span class="muted">(no longer in the pool)</span>}
                          <div class="muted small"><code>{row.parentId}</code></div>
                        </>
                      : <span class="muted">—</span>}
                  </td>
                  <td>{int(row.attempts)}</td>
                  <td>{pct(row.successRate)}</td>
                  <td data-testid="variance">{row.variance === null ? '—' : row.variance.toFixed(3)}</td>
                  <td>{formatNumber(row.difficulty)}</td>
                  <td>{row.policyVersion ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {rows.length > page.length && (
        <div class="row">
          <span class="muted small">Showing {int(page.length)} of {int(rows.length)}.</span>
          <button type="button" onClick={() => { shown.value += PAGE; }}>Show {int(Math.min(PAGE, rows.length - page.length))} more</button>
        </div>
      )}
    </section>
  );
}

export function CurriculumView() {
  // Follow the run while the view is open: every few iterations, and once more when it ends.
  const count = iterations.value;
  const active = isActive.value;
  useEffect(() => { autoRefresh(); }, [count, active]);
  if (emptyReason.value !== null) return <Empty />;
  return (
    <>
      {error.value && <p class="error" role="alert">{error.value}</p>}
      <Summary />
      <Table />
    </>
  );
}
