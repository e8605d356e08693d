// The table in README.md from the seven runs' JSON: per run and task group, both rates, their ratio,
// the ceiling recomputed as bench/web.ts defines it (runs 5 and 6 printed an earlier definition),
// the cores one page kept busy and the CPU ms a step cost with 1 and with 4 pages.
// Usage: node --import tsx results/perf/bench-web-drift/table.mjs
// (tsx: the ceiling is bench/web.ts's own parallelGainCeiling, on the cores each run's machine had.)
import { readFileSync } from 'node:fs';
import { parallelGainCeiling } from '../../../bench/web.ts';

console.log('| run | tasks | 1 page | 4 pages | 4 / 1 | ceiling | cores busy, 1 page | CPU ms a step, 1 page | 4 pages |\n|---|---|---|---|---|---|---|---|---|');
for (let run = 1; run <= 7; run++) {
  const { machine, results } = JSON.parse(readFileSync(new URL(`run${run}.json`, import.meta.url), 'utf8'));
  for (const r of results) {
    const ceiling = parallelGainCeiling(r.pages1StepsPerSec, r.pages4CpuMsPerStep.total, machine.cpus);
    console.log(`| ${run} | ${r.group} | ${r.pages1StepsPerSec} | ${r.pages4StepsPerSec} | ${r.parallelGain.toFixed(2)} | ${ceiling.toFixed(2)} | ${r.pages1CoresBusy.toFixed(2)} | ${r.pages1CpuMsPerStep.total.toFixed(2)} | ${r.pages4CpuMsPerStep.total.toFixed(2)} |`);
  }
}
