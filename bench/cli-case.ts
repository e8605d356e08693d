/**
 * One CLI command in a process of its own, for `npm run bench -- robustness`: runs `main` on the
 * argv given as JSON and prints, as its last stdout line, {code, ms, said, peakRssMiB}: the exit
 * code, how long the command took (the process's start-up not counted), what it said on stderr
 * (cut to 2,000 characters) and the process's peak resident memory, its start-up included.
 */
import { main } from '../src/cli/main.ts';

const argv = JSON.parse(process.argv[2] ?? '[]') as string[];
const stderr: string[] = [];
const started = performance.now();
const code = await main(argv, { out: () => {}, result: () => {}, progress: (text) => stderr.push(text) });
const ms = performance.now() - started;
const said = stderr.join('\n').slice(0, 2_000);
process.stdout.write(`${JSON.stringify({ code, ms, said, peakRssMiB: process.resourceUsage().maxRSS / 1024 })}\n`);
process.exit(0);
