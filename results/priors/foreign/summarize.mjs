// Gathers results/priors/foreign/runs/ (written by run.sh) into summary.json: one record per row
// (regime, demonstrations per task, seeds, mean, std, per seed), and prints the Markdown table the
// README quotes. Missing rows are left out, so a partial run summarizes what finished. The rows
// measured before the web proposer offered every text a task's person types (and with the
// pretrained weights before) are kept apart: `node results/priors/foreign/summarize.mjs
// runs-before-proposer summary-before-proposer.json`.
//
//   node results/priors/foreign/summarize.mjs [RUNS_FOLDER (runs)] [SUMMARY_FILE (summary.json)]
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROW_NAMES, dirs, mean, read, round, std } from '../rows.mjs';

const here = new URL('.', import.meta.url).pathname;
const runs = join(here, process.argv[2] ?? 'runs');
const summaryFile = join(here, process.argv[3] ?? 'summary.json');
const sorted = (dir, pattern) => dirs(dir, pattern).sort();

const rows = [];
const gather = (regime, n, cellDirs) => {
  const per = cellDirs.map(({ seed, dir }) => ({ seed, result: read(join(dir, `${regime}.json`)) })).filter((x) => x.result?.eval);
  if (per.length === 0) return;
  const rates = per.map((x) => x.result.eval.successRate);
  rows.push({ regime, what: ROW_NAMES[regime], site: 'foreign-style corpus', demonstrationsPerTask: n, seeds: per.map((x) => x.seed), episodes: per[0].result.eval.episodes, mean: round(mean(rates)), std: round(std(rates)), perSeed: rates.map((r) => round(r)), wallSeconds: per.map((x) => x.result.wallSeconds) });
};
const seedDirs = sorted(runs, /^s\d+$/).map((s) => ({ seed: Number(s.slice(1)), dir: join(runs, s) }));
for (const regime of ['untrained', 'zero-shot']) gather(regime, 0, seedDirs);
for (const count of sorted(runs, /^n\d+$/)) {
  const n = Number(count.slice(1));
  const cells = sorted(join(runs, count), /^s\d+$/).map((s) => ({ seed: Number(s.slice(1)), dir: join(runs, count, s) }));
  for (const regime of ['bc-scratch', 'bc-pretrained', 'dream-scratch', 'dream-pretrained']) gather(regime, n, cells);
}
writeFileSync(summaryFile, `${JSON.stringify({ question: 'Cloning a few demonstrations of pages written elsewhere, and the dream from the cloned policy, from the pretrained weights and from scratch', rows }, null, 2)}\n`);
const pct = (x) => (x === null ? '–' : (100 * x).toFixed(1));
console.log('| row | demonstrations per task | seeds | mean ± std (%) | per seed (%) |');
console.log('|---|---|---|---|---|');
for (const r of rows) console.log(`| ${r.what} | ${r.demonstrationsPerTask || '–'} | ${r.seeds.join(', ')} | ${pct(r.mean)} ± ${pct(r.std)} | ${r.perSeed.map(pct).join(' / ')} |`);
