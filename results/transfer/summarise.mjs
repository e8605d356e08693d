// The transfer table from run.sh's files: greedy success on the web tasks' test instances, mean ± std over seeds.
// Usage: node --import tsx results/transfer/summarise.mjs [WORK (default results/transfer)] [SEEDS (default "1 2 3")]
// (tsx: the mean and sample std over seeds are the paper report's own, experiments/paper-report.ts.)
import { readFileSync, existsSync, writeFileSync } from 'node:fs';
import { meanStd } from '../../experiments/paper-report.ts';
const [work = 'results/transfer', seedText = '1 2 3'] = process.argv.slice(2);
const seeds = seedText.split(/\s+/).filter(Boolean);
const rows = [
  ['untrained', 'untrained policy (each seed\'s network, 0 transitions)'],
  ['zero-shot', 'the shop policy, zero-shot (0 web transitions)'],
  ['scratch', 'real GRPO from scratch'],
  ['from-shop', 'real GRPO from the shop policy'],
  ['zero-shot-dream', 'the dream-trained shop policy, zero-shot (0 web transitions)'],
  ['from-shop-dream', 'real GRPO from the dream-trained shop policy'],
];
const table = rows.map(([id, label]) => {
  // A file still being written (its run goes on) is left out.
  const runs = seeds.map((s) => `${work}/${id}-s${s}.json`).filter(existsSync).map((f) => readFileSync(f, 'utf8').trim()).filter((text) => text !== '').map((text) => JSON.parse(text.split('\n').at(-1)));
  const success = runs.map((r) => 100 * r.eval.successRate);
  return { id, label, seeds: runs.length, success, ...meanStd(success), realTransitions: runs.map((r) => r.realTransitions), episodes: runs[0]?.eval.episodes ?? 0 };
});
// The source policies' own runs on the shop.
const source = (file) => {
  if (!existsSync(`${work}/${file}`)) return null;
  const run = JSON.parse(readFileSync(`${work}/${file}`, 'utf8').trim().split('\n').at(-1));
  return { realTransitions: run.realTransitions, syntheticTransitions: run.syntheticTransitions ?? 0, eval: run.eval };
};
writeFileSync(`${work}/transfer.json`, `${JSON.stringify({ seeds, shop: source('shop-real-grpo.train.json'), shopDream: source('shop-dream-grpo.train.json'), rows: table }, null, 1)}\n`);
for (const r of table) console.log(`| ${r.label} | ${r.seeds ? `${r.mean.toFixed(1)} ± ${r.std.toFixed(1)}` : '—'} | ${r.success.map((x) => x.toFixed(1)).join(', ')} | ${r.realTransitions.join(', ')} |`);
