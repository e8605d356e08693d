/**
 * Steps per second of each real environment under its scripted policies, in Node. Each figure is
 * the median over repeats of a full seeded rollout (environment and agent time; digest hashing
 * excluded). A warm-up repeat builds the catalog, the search index and the task splits first.
 */
import { scriptedPoliciesOf } from '../src/envs/episode.ts';
import { rollout } from '../src/jobs/rollout.ts';
import { ENVIRONMENTS } from '../src/envs/registry.ts';
import { median } from './stats.ts';
import { benchOptions } from './options.ts';

export async function envsBench(argv: string[]): Promise<unknown> {
  const { episodes, repeats } = benchOptions(argv, { episodes: 200, repeats: 5 });
  const results = [];
  // Live pages have their own bench (`npm run bench -- web`).
  for (const spec of ENVIRONMENTS.filter((e) => e.actionSyntax !== 'page')) {
    // Each environment's own agents: the shopper exists only in the shop.
    for (const policy of scriptedPoliciesOf(spec)) {
      await rollout(spec, policy, { split: spec.testSplit, episodes: 20, seed: 999 });
      const runs = [];
      for (let r = 0; r < repeats; r++) runs.push(await rollout(spec, policy, { split: spec.testSplit, episodes, seed: r }));
      const rates = runs.map((s) => s.stepsPerSec);
      results.push({
        env: spec.name,
        policy,
        split: spec.testSplit,
        episodes,
        repeats,
        stepsPerSecMedian: Math.round(median(rates)),
        stepsPerSecMin: Math.round(Math.min(...rates)),
        stepsPerSecMax: Math.round(Math.max(...rates)),
        meanSteps: Number(median(runs.map((s) => s.meanSteps)).toFixed(2)),
        successRate: Number(median(runs.map((s) => s.successRate)).toFixed(3)),
      });
    }
  }
  return { results };
}
