/**
 * `npm run bench -- <name>`: runs one benchmark and prints its figures as one JSON object.
 * Benchmarks measure; tests never assert timings.
 */
import { cpus } from 'node:os';
import { isArgumentError, UsageError } from '../src/core/errors.ts';
import { endQuietlyWhenStdoutCloses } from '../src/platform/closed-stdout.ts';
import { browserBench } from './browser.ts';
import { e2eBench } from './e2e.ts';
import { envsBench } from './envs.ts';
import { experienceBench } from './experience.ts';
import { guideBench } from './guide.ts';
import { neuralBench } from './neural.ts';
import { policyBench } from './policy.ts';
import { replayBench } from './replay.ts';
import { robustnessBench } from './robustness.ts';
import { roomBench } from './room.ts';
import { webBench } from './web.ts';

const BENCHES: Record<string, (args: string[]) => Promise<unknown>> = {
  browser: browserBench,
  e2e: e2eBench,
  envs: envsBench,
  experience: experienceBench,
  guide: guideBench,
  neural: neuralBench,
  policy: policyBench,
  replay: replayBench,
  robustness: robustnessBench,
  room: roomBench,
  web: webBench,
};

const USAGE = `usage: npm run bench -- <${Object.keys(BENCHES).join('|')}> [options]\n`;
endQuietlyWhenStdoutCloses();
const [name, ...args] = process.argv.slice(2);
const bench = name === undefined ? undefined : BENCHES[name];
if (!bench) {
  process.stderr.write(USAGE);
  process.exitCode = 2;
} else {
  try {
    const figures = await bench(args);
    const machine = { node: process.version, cpus: cpus().length, cpu: cpus()[0]?.model ?? 'unknown' };
    process.stdout.write(`${JSON.stringify({ bench: name, machine, ...(figures as object) }, null, 2)}\n`);
  } catch (error) {
    // An option the bench does not take (--help included) or a bad value is bad input: say which, not a stack.
    if (!isArgumentError(error) && !(error instanceof UsageError)) throw error;
    process.stderr.write(`${name}: ${error.message}\n${USAGE}`);
    process.exitCode = 2;
  }
}
