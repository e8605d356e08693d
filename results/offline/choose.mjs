// The offline baselines' settings chosen on validation data: for each environment and mode, the
// learning rate and epoch count whose validation success is highest over the sweep's runs
// (results/offline/sweep.sh), each evaluation averaged with its neighbours (the one before and the
// one after, in the same run) so that one lucky evaluation of 200–250 episodes does not decide;
// ties go to fewer epochs. Prints the choice and every curve as JSON.
// Usage: node results/offline/choose.mjs > results/offline/choice.json
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const dir = path.join(path.dirname(new URL(import.meta.url).pathname), 'runs');
const runs = readdirSync(dir)
  .filter((f) => /^[a-z]+-(bc|dpo)-lr[0-9.e-]+\.json$/.test(f))
  .map((f) => JSON.parse(readFileSync(path.join(dir, f), 'utf8')));

const out = {};
for (const run of runs) {
  // The last epoch's evaluation is the run's final one (a trainer does not evaluate twice).
  const curve = run.history.map((m, i) => (i === run.history.length - 1 ? run.eval : m.eval)?.successRate ?? null);
  const key = `${run.env}/${run.mode}`;
  const entry = (out[key] ??= { split: run.eval.split, episodes: run.eval.episodes, runs: [], choice: null });
  entry.runs.push({ learningRate: run.config.learningRate, success: curve.map((x) => (x === null ? null : Number(x.toFixed(3)))) });
  const evaluated = curve.map((success, i) => ({ epochs: i + 1, success })).filter((x) => x.success !== null);
  evaluated.forEach(({ epochs }, j) => {
    const window = evaluated.slice(Math.max(0, j - 1), j + 2).map((x) => x.success);
    const smoothed = Number((window.reduce((a, b) => a + b, 0) / window.length).toFixed(3));
    const best = entry.choice;
    if (!best || smoothed > best.smoothed || (smoothed === best.smoothed && epochs < best.epochs)) {
      entry.choice = { learningRate: run.config.learningRate, epochs, smoothed, success: Number(evaluated[j].success.toFixed(3)) };
    }
  });
}
for (const entry of Object.values(out)) entry.runs.sort((a, b) => a.learningRate - b.learningRate);
console.log(JSON.stringify(out, null, 2));
