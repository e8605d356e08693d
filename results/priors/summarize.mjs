// Gathers results/priors/runs/<site>/n<N>/s<seed>/<row>.json (written by run.sh) into summary.json:
// one record per row (regime, site, demonstrations per task, seeds, mean, std, per seed) and one per
// model for fidelity, and prints the Markdown tables the README quotes. Missing rows are left out,
// so a partial run summarizes what finished.
//
//   node results/priors/summarize.mjs [RUNS_FOLDER (runs)] [SUMMARY_FILE (summary.json)]
//
// The held-out rows made after the web proposer offered the cart's address (c70bdfc) and with the
// weights shipped since: `node results/priors/summarize.mjs after-proposer/runs after-proposer/summary.json`.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROW_NAMES, dirs, mean, read, round, std } from './rows.mjs';

const here = new URL('.', import.meta.url).pathname;
const runs = join(here, process.argv[2] ?? 'runs');
const summaryFile = join(here, process.argv[3] ?? 'summary.json');
const SITES = { heldout: 'held-out generated families (cart, messaging)', suite: "the bundled suite's 12 app-like tasks" };
const ROWS = ['untrained', 'zero-shot', 'bc-scratch', 'bc-pretrained', 'dream-scratch', 'dream-pretrained', 's2r-scratch', 's2r-pretrained'];
const rows = [];
const fidelity = [];
for (const site of dirs(runs, /^(heldout|suite)$/)) {
  for (const count of dirs(join(runs, site), /^n\d+$/).sort((a, b) => a.slice(1) - b.slice(1))) {
    const n = Number(count.slice(1));
    const seeds = dirs(join(runs, site, count), /^s\d+$/).sort();
    for (const row of ROWS) {
      const per = seeds.map((s) => ({ seed: Number(s.slice(1)), result: read(join(runs, site, count, s, `${row}.json`)) })).filter((x) => x.result?.eval);
      if (per.length === 0) continue;
      const rates = per.map((x) => x.result.eval.successRate);
      rows.push({
        regime: row,
        what: ROW_NAMES[row],
        site,
        demonstrationsPerTask: n,
        seeds: per.map((x) => x.seed),
        episodes: per[0].result.eval.episodes,
        mean: round(mean(rates)),
        std: round(std(rates)),
        perSeed: rates.map((r) => round(r)),
        wallSeconds: per.map((x) => x.result.wallSeconds),
      });
    }
    for (const from of ['scratch', 'pretrained']) {
      const per = seeds.map((s) => ({ seed: Number(s.slice(1)), result: read(join(runs, site, count, s, `fidelity-${from}.json`)) })).filter((x) => x.result?.success);
      if (per.length === 0) continue;
      const pick = (f) => per.map((x) => f(x.result)).filter((v) => typeof v === 'number');
      const stat = (f) => {
        const xs = pick(f);
        return xs.length === 0 ? null : { mean: round(mean(xs)), std: round(std(xs)), perSeed: xs.map((x) => round(x)) };
      };
      fidelity.push({
        model: from === 'pretrained' ? 'pretrained, fine-tuned on the buffer' : 'fitted from nothing on the buffer',
        init: from,
        site,
        demonstrationsPerTask: n,
        seeds: per.map((x) => x.seed),
        transitions: per.map((x) => x.result.transitions ?? x.result.heldout?.transitions),
        realSuccesses: per.map((x) => x.result.success.real),
        successPrecision: stat((r) => r.success.precision),
        successRecall: stat((r) => r.success.recall),
        nextStateF1: stat((r) => r.nextStateF1),
        rewardAccuracy: stat((r) => r.rewardAccuracy),
      });
    }
  }
}
// Issue 58's bar: the best dream row's gain over the pretrained policy (zero-shot), as a multiple of
// BC's gain from the same policy on the same demonstrations, by site and count; per seed where every row has it.
const bars = [];
for (const site of Object.keys(SITES)) {
  for (const n of [...new Set(rows.filter((r) => r.site === site).map((r) => r.demonstrationsPerTask))]) {
    const row = (regime) => rows.find((r) => r.site === site && r.demonstrationsPerTask === n && r.regime === regime);
    const start = row('zero-shot');
    const bc = row('bc-pretrained');
    const dreams = ['dream-pretrained', 's2r-pretrained'].map(row).filter(Boolean);
    if (!start || !bc || dreams.length === 0) continue;
    const best = dreams.reduce((a, b) => (b.mean > a.mean ? b : a));
    const bcGain = bc.mean - start.mean;
    const perSeed = best.seeds
      .map((seed, i) => {
        const z = start.perSeed[start.seeds.indexOf(seed)];
        const b = bc.perSeed[bc.seeds.indexOf(seed)];
        return z === undefined || b === undefined || b === z ? null : round((best.perSeed[i] - z) / (b - z), 2);
      });
    bars.push({ site, demonstrationsPerTask: n, bestDreamRow: best.regime, seeds: best.seeds, dreamGain: round(best.mean - start.mean), bcGain: round(bcGain), ratio: bcGain === 0 ? null : round((best.mean - start.mean) / bcGain, 2), perSeedRatio: perSeed, bar: 1.3 });
  }
}

writeFileSync(summaryFile, `${JSON.stringify({ note: 'greedy success on test episodes (mean and sample std over seeds); fidelity on the pretrained BC policy\'s own greedy test steps; made by results/priors/run.sh, gathered by summarize.mjs', rows, fidelity, bars }, null, 2)}\n`);

const pct = (x) => (x === null ? '—' : (100 * x).toFixed(1));
if (bars.length > 0) {
  console.log('\n| site | demos per task | best dream row | seeds | its gain over the pretrained policy | BC\'s gain from it | ratio (bar 1.3) | per seed |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const b of bars) console.log(`| ${b.site} | ${b.demonstrationsPerTask} | ${b.bestDreamRow} | ${b.seeds.length} | ${pct(b.dreamGain)} | ${pct(b.bcGain)} | ${b.ratio ?? '—'} | ${b.perSeedRatio.map((r) => r ?? '—').join(', ')} |`);
}
for (const site of Object.keys(SITES)) {
  const mine = rows.filter((r) => r.site === site);
  if (mine.length === 0) continue;
  console.log(`\n### ${SITES[site]}\n`);
  console.log('| row | demos per task | seeds | mean % | std | per seed |');
  console.log('|---|---|---|---|---|---|');
  for (const r of mine) console.log(`| ${r.what} | ${r.demonstrationsPerTask} | ${r.seeds.length} | ${pct(r.mean)} | ${pct(r.std)} | ${r.perSeed.map(pct).join(', ')} |`);
  const fid = fidelity.filter((f) => f.site === site);
  if (fid.length === 0) continue;
  console.log('\n| model | demos per task | seeds | real successes | success precision | success recall | next-state F1 |');
  console.log('|---|---|---|---|---|---|---|');
  const f3 = (s) => (s === null ? '—' : `${s.mean.toFixed(3)} (${s.perSeed.map((x) => x.toFixed(2)).join(', ')})`);
  for (const f of fid) console.log(`| ${f.model} | ${f.demonstrationsPerTask} | ${f.seeds.length} | ${f.realSuccesses.join(', ')} | ${f3(f.successPrecision)} | ${f3(f.successRecall)} | ${f3(f.nextStateF1)} |`);
}
