import { useEffect, useMemo } from 'preact/hooks';
import { FileDropZone } from '../FileDropZone.tsx';
import { LiveChart, type ChartSeries } from '../train/LiveChart.tsx';
import { heldOutData, runStyle, trainingData } from './run-charts.ts';
import type { StoredRun } from './run-library.ts';
import {
  deleteRun, downloadPolicy, downloadRun, error, evaluateRunHash, importFiles, importing, importNote, importProblems, loadRuns, runs, selectAll, selected,
  selectedRuns, setSelected,
} from './runs-store.ts';

// Every label, file name and field below came from a file or a run: JSX text children, which
// Preact escapes, so markup in an imported file shows as the characters it is and never runs.

const int = (n: number) => n.toLocaleString('en-US');
const pct = (n: number) => `${(100 * n).toFixed(1)}%`;

function seconds(s: number): string {
  return s < 100 ? s.toFixed(1) : int(Math.round(s));
}

function source(run: StoredRun): string {
  return run.source === 'app' ? 'trained here' : (run.fileName ?? 'a file');
}

function Import() {
  const pick = (files: FileList | null | undefined) => {
    if (files && files.length > 0) void importFiles([...files]);
  };
  const problems = importProblems.value;
  return (
    <section class="panel" aria-labelledby="runs-import-title">
      <h2 id="runs-import-title">Import runs</h2>
      <FileDropZone label="Drop run files here" onFiles={pick}>
        <p>
          Drop JSON files here: a training run as the CLI writes it (<code>train … --history FILE.json</code>) or a paper
          experiment report (each of its runs is listed as <em>row label</em> seed <em>N</em>). Or choose them:
        </p>
        <div class="row">
          <label for="runs-file">Run files (.json)</label>
          <input id="runs-file" type="file" accept=".json,application/json" multiple disabled={importing.value}
            onChange={(e) => { const input = e.target as HTMLInputElement; pick(input.files); input.value = ''; }} />
          {importing.value && <span class="muted" role="status">Reading…</span>}
        </div>
      </FileDropZone>
      {importNote.value && <p role="status" data-testid="runs-import-note">{importNote.value}</p>}
      {problems.length > 0 && (
        <div class="error" role="alert" data-testid="runs-import-error">
          {problems.length === 1
            ? <>Not imported: {problems[0]}</>
            : <>Not imported:<ul class="problems">{problems.map((p, i) => <li key={i}>{p}</li>)}</ul></>}
        </div>
      )}
    </section>
  );
}

function RunList() {
  const all = runs.value;
  if (all === null) return <section class="panel"><p class="muted">Reading the stored runs…</p></section>;
  const chosen = selected.value;
  return (
    <section class="panel" aria-labelledby="runs-list-title">
      <h2 id="runs-list-title">Runs <span class="muted small">{all.length === 0 ? '' : `${chosen.size} of ${all.length} compared`}</span></h2>
      {all.length === 0 ? (
        <p class="muted" data-testid="runs-empty">
          No runs yet. Every run the <a href="#train">Train</a> view or the guided run (<a href="#start">Start</a>) finishes is
          kept here, in this browser, with its policy; runs from the CLI or a paper experiment can be imported above.
        </p>
      ) : (
        <>
          <div class="row">
            <button type="button" onClick={() => selectAll(true)} disabled={chosen.size === all.length}>Compare all</button>
            <button type="button" onClick={() => selectAll(false)} disabled={chosen.size === 0}>Compare none</button>
          </div>
          <div class="table-scroll">
            <table class="counts runs-table" data-testid="runs-list">
              <caption class="visually-hidden">Stored runs; tick the ones to compare</caption>
              <thead>
                <tr>
                  <th scope="col">Compare</th><th scope="col">Run</th><th scope="col">From</th><th scope="col">Env</th>
                  <th scope="col">Mode</th><th scope="col">Algo</th><th scope="col">Held-out success</th><th scope="col">Added</th>
                  <th scope="col"><span class="visually-hidden">Actions</span></th>
                </tr>
              </thead>
              <tbody>
                {all.map((r) => (
                  <tr key={r.id}>
                    <td>
                      <input type="checkbox" id={`compare-${r.id}`} checked={chosen.has(r.id)} aria-label={`Compare ${r.label}`}
                        onChange={(e) => setSelected(r.id, (e.target as HTMLInputElement).checked)} />
                    </td>
                    <th scope="row"><label for={`compare-${r.id}`}>{r.label}</label></th>
                    <td class="file-name">{source(r)}</td>
                    <td>{r.run.env}</td>
                    <td>{r.run.mode}</td>
                    <td>{r.run.algo.toUpperCase()}</td>
                    <td>{r.run.eval ? <>{pct(r.run.eval.successRate)} <span class="muted small">({int(r.run.eval.episodes)} ep.)</span></> : '—'}</td>
                    <td>{new Date(r.addedAt).toLocaleString()}</td>
                    <td class="actions">
                      {(r.policyBytes ?? 0) > 0 && (
                        <div class="run-policy-actions">
                          <button type="button" class="primary" aria-label={`Evaluate the policy of ${r.label}`}
                            title="Open this run's policy in the Evaluate view: evaluate it on held-out tasks, watch it play"
                            onClick={() => { window.location.hash = evaluateRunHash(r.id); }}>Evaluate</button>
                          <button type="button" aria-label={`Download policy (.dgp) of ${r.label}`}
                            title="The policy this run trained, as a .dgp file (the Train view's Export writes the same)"
                            onClick={() => void downloadPolicy(r)}>Download policy (.dgp)</button>
                        </div>
                      )}
                      <div>
                        <button type="button" aria-label={`Download run ${r.label}`} onClick={() => downloadRun(r)}>Download</button>
                        <button type="button" aria-label={`Download the curve of ${r.label} as CSV`} onClick={() => downloadRun(r, 'csv')}>CSV</button>
                        <button type="button" aria-label={`Download the curve of ${r.label} as JSONL`} onClick={() => downloadRun(r, 'jsonl')}>JSONL</button>
                        <button type="button" aria-label={`Delete run ${r.label}`}
                          onClick={() => { if (window.confirm(`Delete the run “${r.label}” from this browser?`)) void deleteRun(r.id); }}>
                          Delete
                        </button>
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </section>
  );
}

function Swatch({ index }: { index: number }) {
  const style = runStyle(index);
  const line = !style.dash ? '' : style.dash[0] === 2 ? ' dotted' : ' dashed';
  return <span class={`swatch${line}`} style={{ borderColor: style.color }} aria-hidden="true" />;
}

function Comparison() {
  const chosen = selectedRuns.value;
  if (chosen.length === 0) {
    return (runs.value?.length ?? 0) > 0
      ? <section class="panel"><p class="muted">Tick runs above to compare them.</p></section>
      : null;
  }
  return (
    <section class="panel" aria-labelledby="compare-title">
      <h2 id="compare-title">Comparison</h2>
      <div class="table-scroll" tabIndex={0} role="region" aria-label="The compared runs">
        <table class="counts compare-table" data-testid="runs-compare">
          <caption class="visually-hidden">The compared runs side by side</caption>
          <thead>
            <tr>
              <th scope="col">Run</th><th scope="col">Env</th><th scope="col">Mode</th><th scope="col">Algo</th>
              <th scope="col">Backend</th><th scope="col">Experience model</th><th scope="col">Real transitions</th>
              <th scope="col">Synthetic transitions</th><th scope="col">Wall seconds</th><th scope="col">Held-out success</th>
              <th scope="col">Held-out score</th>
            </tr>
          </thead>
          <tbody>
            {chosen.map((r, i) => {
              const run = r.run;
              return (
                <tr key={r.id}>
                  <th scope="row"><Swatch index={i} /> {r.label}</th>
                  <td>{run.env}</td>
                  <td>{run.mode}{run.curriculum ? <span class="muted"> + curriculum λ {run.curriculum.lambda}</span> : null}</td>
                  <td>{run.algo.toUpperCase()}</td>
                  <td>{run.backend}</td>
                  <td>{run.dream?.experience ?? '—'}</td>
                  <td>{int(run.realTransitions)}</td>
                  <td>{int(run.syntheticTransitions)}</td>
                  <td>{seconds(run.wallSeconds)}</td>
                  <td>{run.eval ? <>{pct(run.eval.successRate)} <span class="muted small">({run.eval.split}, {int(run.eval.episodes)} ep.)</span></> : '—'}</td>
                  <td>{run.eval ? run.eval.meanScore.toFixed(1) : '—'}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <Charts chosen={chosen} />
    </section>
  );
}

function Charts({ chosen }: { chosen: StoredRun[] }) {
  // A chart is built for a fixed set of series: a new selection draws a new chart. A stored run
  // never changes, so its id stands for its data.
  const key = chosen.map((r) => r.id).join(',');
  const { series, training, heldOut, perIteration } = useMemo(() => {
    const series: ChartSeries[] = chosen.map((r, i) => ({ label: r.label, axis: 'left', points: true, ...runStyle(i) }));
    const data = chosen.map((r) => r.run);
    return {
      series,
      training: series.map((s) => ({ ...s, points: false })),
      heldOut: heldOutData(data),
      perIteration: trainingData(data),
    };
  }, [key]);
  return (
    <div class="charts" data-testid="runs-charts">
      <LiveChart key={`held-out:${key}`} title="Held-out success by transitions spent" xLabel="transitions (real + synthetic)"
        left={{ label: 'held-out success', range: [0, 1] }} series={series} data={heldOut} />
      <LiveChart key={`training:${key}`} title="Training success by iteration" xLabel="iteration" xIntegers
        left={{ label: 'train success', range: [0, 1] }} series={training} data={perIteration} />
    </div>
  );
}

export function RunsView() {
  useEffect(() => { void loadRuns(); }, []);
  return (
    <>
      {error.value && <p class="error" role="alert">{error.value}</p>}
      <Import />
      <RunList />
      <Comparison />
    </>
  );
}
