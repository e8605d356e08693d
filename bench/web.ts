/**
 * The web env's speed in Node (the system Chromium): oracle steps per second on the bundled
 * suite's test instances, resets included, with 1 page and with 4 pages stepping at once (one env
 * and one tab each), for the single-widget tasks, the app-like ones and the task of several pages
 * (a reload at every navigation). Each figure
 * is the median over repeats; `parallelGain` is 4 pages' steps/s over 1 page's, in the same run;
 * `pagesNCoresBusy` how many of the machine's cores were busy meanwhile (Linux only), which bounds
 * what more pages can gain, and `pagesNCpuMsPerStep` where a step's CPU went: this Node process
 * (env, oracle, the folder's server) and each kind of Chromium process (Linux only),
 * `pagesNCpuMsPerThread` the same by thread (`chromium renderer · main`, `… · Chrome_ChildIOT`), and
 * `parallelGainCeiling` the most 4 pages could give over one on this machine's cores at that CPU per step.
 */
import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { runEpisode } from '../src/envs/episode.ts';
import { envSpec } from '../src/envs/registry.ts';
import type { Task } from '../src/core/types.ts';
import { closePageHosts } from '../src/envs/web/hosts.ts';
import { SUITE_SITE } from '../src/envs/web/suite/site.ts';
import { cpuMsPer, processTreeCpu } from './process-cpu.ts';
import { median } from './stats.ts';
import { benchOptions } from './options.ts';

/**
 * CPU seconds the whole machine has spent busy (Linux `/proc/stat`: user, nice, system, irq,
 * softirq), or null elsewhere. Node and every Chromium process together: what a page costs.
 */
function busySeconds(): number | null {
  if (!existsSync('/proc/stat')) return null;
  const fields = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '').trim().split(/\s+/).slice(1).map(Number);
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0] = fields;
  return (user + nice + system + irq + softirq) / 100;
}

/**
 * Steps per second of `pages` envs each playing its share of `tasks` with the oracle, resets
 * included, and how many cores the machine kept busy meanwhile (null where it cannot say).
 */
async function oracleRate(tasks: readonly Task[], pages: number): Promise<{ stepsPerSec: number; won: number; coresBusy: number | null; cpuMsPerStep: Record<string, number> | null; cpuMsPerThread: Record<string, number> | null }> {
  const spec = envSpec('web');
  const envs = Array.from({ length: pages }, () => spec.createEnv());
  // Warm every tab on its first page so that opening tabs is not timed.
  await Promise.all(envs.map((env, i) => runEpisode(env, spec.createOracle(), tasks[i % tasks.length] as Task)));
  let steps = 0;
  let won = 0;
  const busyBefore = busySeconds();
  const cpuBefore = processTreeCpu();
  const started = performance.now();
  await Promise.all(envs.map(async (env, lane) => {
    for (let i = lane; i < tasks.length; i += pages) {
      const record = await runEpisode(env, spec.createOracle(), tasks[i] as Task);
      steps += record.steps.length;
      if (record.won) won++;
    }
  }));
  const seconds = (performance.now() - started) / 1000;
  const busyAfter = busySeconds();
  const cpuAfter = processTreeCpu();
  const coresBusy = busyBefore === null || busyAfter === null ? null : Number(((busyAfter - busyBefore) / seconds).toFixed(2));
  const cpuMsPerStep = cpuBefore === null || cpuAfter === null ? null : withTotal(cpuMsPer(cpuBefore.byKind, cpuAfter.byKind, steps));
  const cpuMsPerThread = cpuBefore === null || cpuAfter === null ? null : cpuMsPer(cpuBefore.byThread, cpuAfter.byThread, steps);
  return { stepsPerSec: steps / seconds, won: won / tasks.length, coresBusy, cpuMsPerStep, cpuMsPerThread };
}

function withTotal(perKind: Record<string, number>): Record<string, number> {
  const total = Object.values(perKind).reduce((sum, ms) => sum + ms, 0);
  return { ...perKind, total: Number(total.toFixed(2)) };
}

/**
 * The most that 4 pages could give over one page on this machine's cores: with every core busy they
 * make at most `cores / cpuMsPerStep` steps a millisecond, against one page's one step per
 * `1000 / pages1StepsPerSec` ms. It stays below 2 on 2 cores while one page keeps more than one core
 * busy (the Node process and Chromium's processes work at once, so a step's CPU exceeds its wall
 * time), and a step made cheaper on its path lowers it, since one page speeds up as much as four. A
 * machine that slows during the one-page runs (another tenant's load) raises it for that run only.
 * Null where the CPU per step is not known (not Linux).
 */
export function parallelGainCeiling(pages1StepsPerSec: number, pages4CpuMsPerStep: number | undefined, cores = availableParallelism()): number | null {
  if (pages4CpuMsPerStep === undefined || pages4CpuMsPerStep <= 0) return null;
  return Number(((cores * 1000) / (pages1StepsPerSec * pages4CpuMsPerStep)).toFixed(2));
}

/** Each kind's median over runs (a kind a run did not see counts 0 there). */
function medianByKind(runs: Record<string, number>[]): Record<string, number> {
  const kinds = [...new Set(runs.flatMap((run) => Object.keys(run)))];
  return Object.fromEntries(kinds.map((kind) => [kind, median(runs.map((run) => run[kind] ?? 0))]));
}

export async function webBench(argv: string[]): Promise<unknown> {
  const { episodes, repeats } = benchOptions(argv, { episodes: 120, repeats: 3 });
  const spec = envSpec('web');
  const entry = new Map(SUITE_SITE.tasks.map((t) => [t.id, t]));
  const test = spec.tasks(spec.testSplit);
  const of = (t: Task) => entry.get((t.goal as { task: string }).task);
  const groups = {
    singleWidget: test.filter((t) => !('app' in (of(t) ?? {})) && of(t)?.page === 'index.html'),
    appLike: test.filter((t) => 'app' in (of(t) ?? {})),
    severalPages: test.filter((t) => of(t)?.page !== 'index.html'),
  };
  const results = [];
  try {
    for (const [group, tasks] of Object.entries(groups)) {
      const chosen = tasks.slice(0, episodes);
      const figures: Record<string, number> = {};
      const cpuFigures: Record<string, Record<string, number>> = {};
      for (const pages of [1, 4]) {
        const runs = [];
        for (let r = 0; r < repeats; r++) runs.push(await oracleRate(chosen, pages));
        figures[`pages${pages}StepsPerSec`] = Math.round(median(runs.map((x) => x.stepsPerSec)));
        figures[`pages${pages}SuccessRate`] = median(runs.map((x) => x.won));
        const cores = runs.map((x) => x.coresBusy).filter((c): c is number => c !== null);
        if (cores.length > 0) figures[`pages${pages}CoresBusy`] = median(cores);
        const cpu = runs.map((x) => x.cpuMsPerStep).filter((c): c is Record<string, number> => c !== null);
        if (cpu.length > 0) cpuFigures[`pages${pages}CpuMsPerStep`] = medianByKind(cpu);
        const threads = runs.map((x) => x.cpuMsPerThread).filter((c): c is Record<string, number> => c !== null);
        if (threads.length > 0) cpuFigures[`pages${pages}CpuMsPerThread`] = medianByKind(threads);
      }
      const parallelGain = Number(((figures.pages4StepsPerSec as number) / (figures.pages1StepsPerSec as number)).toFixed(2));
      const ceiling = parallelGainCeiling(figures.pages1StepsPerSec as number, cpuFigures.pages4CpuMsPerStep?.total);
      results.push({ group, episodes: chosen.length, repeats, ...figures, ...cpuFigures, parallelGain, ...(ceiling === null ? {} : { parallelGainCeiling: ceiling }) });
    }
  } finally {
    await closePageHosts();
  }
  return { results };
}
