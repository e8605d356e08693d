// The real-mode tables from run.sh's by-type files in a folder: greedy success on all 900 test
// instances, single widgets and app-like tasks (each task counted alike), mean ± std over seeds;
// then success per task, each row's mean over its seeds.
// Usage: node --import tsx results/real-baseline/web/summarise.mjs [DIR (default results/real-baseline/web)] [SEEDS (default "1 2 3")]
// (tsx: the mean and sample std over seeds are the paper report's own, experiments/paper-report.ts.)
import { existsSync, readFileSync } from 'node:fs';
import { meanStd } from '../../../experiments/paper-report.ts';

const [dir = 'results/real-baseline/web', seedText = '1 2 3'] = process.argv.slice(2);
const seeds = seedText.split(/\s+/).filter(Boolean);
const rows = [
  ['untrained', 'untrained policy'],
  ['grpo', 'real GRPO, 30K'],
  ['ppo', 'real PPO, 30K'],
];
const stats = (xs) => {
  const { mean, std } = meanStd(xs);
  return `${mean.toFixed(1)} ± ${std.toFixed(1)}`;
};
const runs = Object.fromEntries(rows.map(([id]) => [id, seeds.map((s) => `${dir}/${id}-seed${s}.by-type.json`).filter(existsSync).map((file) => JSON.parse(readFileSync(file, 'utf8')))]));
console.log('| row (seeds) | all 900 | single widgets | app-like |\n|---|---|---|---|');
for (const [id, label] of rows) {
  const got = runs[id];
  if (got.length === 0) continue;
  console.log(`| ${label} (${got.length}) | ${stats(got.map((r) => 100 * r.successRate))} | ${stats(got.map((r) => 100 * r.byGroup.widget))} | ${stats(got.map((r) => 100 * r.byGroup.app))} |`);
}
const present = rows.filter(([id]) => runs[id].length > 0);
const tasks = [...new Set(present.flatMap(([id]) => runs[id].flatMap((r) => Object.keys(r.byType))))].sort();
console.log(`\n| task | ${present.map(([, label]) => label).join(' | ')} |\n|---|${present.map(() => '---|').join('')}`);
for (const task of tasks) {
  const cells = present.map(([id]) => {
    const shares = runs[id].map((r) => r.byType[task]).filter(Boolean).map((t) => (100 * t.wins) / t.episodes);
    return shares.length ? meanStd(shares).mean.toFixed(1) : '—';
  });
  console.log(`| ${task} | ${cells.join(' | ')} |`);
}
