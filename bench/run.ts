/**
 * `npm run bench -- <name>`: runs one benchmark and prints its figures as one JSON object.
 * Benchmarks measure; tests never assert timings.
 */
import { cpus } from 'node:os';
import { isArgumentError, UsageError } from '../src/core/errors.ts';
import { endQuietlyWhenStdoutCloses } from '../src/platform/closed-stdout.ts';
type Bench = (args: string[]) => Promise<unknown>;

// Each bench is imported only when named: most pull in tfjs or Playwright, and a typo or --help
// should answer at once rather than after loading all of them.
const BENCHES: Record<string, () => Promise<Bench>> = {
  browser: async () => (await import('./browser.ts')).browserBench,
  e2e: async () => (await import('./e2e.ts')).e2eBench,
  envs: async () => (await import('./envs.ts')).envsBench,
  experience: async () => (await import('./experience.ts')).experienceBench,
  guide: async () => (await import('./guide.ts')).guideBench,
  neural: async () => (await import('./neural.ts')).neuralBench,
  pace: async () => (await import('./pace.ts')).paceBench,
  policy: async () => (await import('./policy.ts')).policyBench,
  replay: async () => (await import('./replay.ts')).replayBench,
  robustness: async () => (await import('./robustness.ts')).robustnessBench,
  room: async () => (await import('./room.ts')).roomBench,
  'room-hostile': async () => (await import('./room-hostile.ts')).roomHostileBench,
  screenshots: async () => (await import('./screenshots.ts')).screenshotsBench,
  web: async () => (await import('./web.ts')).webBench,
};

const USAGE = `usage: npm run bench -- <${Object.keys(BENCHES).join('|')}> [options]\n`;
endQuietlyWhenStdoutCloses();
const [name, ...args] = process.argv.slice(2);
const load = name === undefined ? undefined : BENCHES[name];
if (!load) {
  process.stderr.write(USAGE);
  process.exitCode = 2;
} else {
  try {
    const figures = await (await load())(args);
    const machine = { node: process.version, cpus: cpus().length, cpu: cpus()[0]?.model ?? 'unknown' };
    process.stdout.write(`${JSON.stringify({ bench: name, machine, ...(figures as object) }, null, 2)}\n`);
  } catch (error) {
    // An option the bench does not take (--help included) or a bad value is bad input: say which, not a stack.
    if (!isArgumentError(error) && !(error instanceof UsageError)) throw error;
    process.stderr.write(`${name}: ${error.message}\n${USAGE}`);
    process.exitCode = 2;
  }
}
