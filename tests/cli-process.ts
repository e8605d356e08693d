/** The CLI as a person runs it, in a child process (tsx, from the repository root), for tests. */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const CLI = ['--import', 'tsx', 'src/cli/main.ts'];

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The CLI started with `args`, its stdout and stderr piped (a server the test talks to). */
export function spawnCli(args: string[]): ChildProcessByStdio<null, Readable, Readable> {
  return spawn(process.execPath, [...CLI, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Resolves with the exit code and both outputs, whatever the code. */
export function runCliProcess(args: string[]): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawnCli(args);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
