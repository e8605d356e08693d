/**
 * The robustness bench's classes run through the CLI itself (issue 60): hostile files behind every
 * file a command reads (each in a process of its own, watched for memory and time), and outputs
 * that name a command's own input (by the same path, a path through `..`, a symbolic link and a
 * hard link). What each counts as a failure: a process killed for memory or hung, an untyped error
 * (a stack trace, or a refusal that does not name the file), and an input whose bytes changed.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { main } from '../src/cli/main.ts';
import { FILE_READING_COMMANDS, HOSTILE_REFUSAL, hostileFiles, makeHostileFiles } from './hostile-files.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

/** A process over this is killed and counted as killed for memory (the bar is 500 MB; a reader that reads /dev/zero whole passes it within a second). */
const KILL_AT_MIB = 1_024;
/** A process still running after this hung (a FIFO read blocks forever). */
const HANG_MS = 60_000;
/** The bars a refusal of a hostile file must meet (issue 60). */
const REFUSAL_MS = 5_000;
const PEAK_MIB = 500;
/** A stack trace's line (V8 indents each frame by four spaces). */
const STACK_LINE = /^ {4}at /m;

interface CaseResult {
  code: number;
  ms: number;
  said: string;
  peakRssMiB: number;
}

type Watched = { ended: 'exited'; result: CaseResult } | { ended: 'killed for memory' | 'hung' | 'crashed'; detail: string };

/** Resident memory of a process, from /proc (Linux); 0 when it is gone. */
function rssMiB(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /^VmRSS:\s+(\d+) kB/m.exec(status)?.[1];
    return kb === undefined ? 0 : Number(kb) / 1024;
  } catch {
    return 0;
  }
}

/** Runs one command in a child (bench/cli-case.ts), killing it past KILL_AT_MIB or HANG_MS. */
function runWatched(argv: string[]): Promise<Watched> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--max-semi-space-size=64', '--import', 'tsx', path.join(ROOT, 'bench/cli-case.ts'), JSON.stringify(argv)], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let verdict: 'killed for memory' | 'hung' | undefined;
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2_000)));
    const watch = setInterval(() => {
      if (child.pid !== undefined && rssMiB(child.pid) > KILL_AT_MIB) {
        verdict = 'killed for memory';
        child.kill('SIGKILL');
      }
    }, 50);
    const deadline = setTimeout(() => {
      verdict = 'hung';
      child.kill('SIGKILL');
    }, HANG_MS);
    child.on('close', () => {
      clearInterval(watch);
      clearTimeout(deadline);
      if (verdict) return resolve({ ended: verdict, detail: argv.join(' ') });
      const last = stdout.trim().split('\n').at(-1) ?? '';
      try {
        resolve({ ended: 'exited', result: JSON.parse(last) as CaseResult });
      } catch {
        resolve({ ended: 'crashed', detail: `${argv.join(' ')}: ${stderr.trim().split('\n').at(-1) ?? ''}` });
      }
    });
  });
}

export interface ClassCount {
  tried: number;
  outcomes: Record<string, number>;
  untyped: number;
  killedForMemory: number;
  hung: number;
  overwrittenInputs: number;
  first?: string;
}

function newCount(): ClassCount {
  return { tried: 0, outcomes: {}, untyped: 0, killedForMemory: 0, hung: 0, overwrittenInputs: 0 };
}

function add(count: ClassCount, outcome: string, failure?: { field: 'untyped' | 'killedForMemory' | 'hung' | 'overwrittenInputs'; detail: string }): void {
  count.tried++;
  count.outcomes[outcome] = (count.outcomes[outcome] ?? 0) + 1;
  if (failure) {
    count[failure.field]++;
    count.first ??= `${outcome}: ${failure.detail.slice(0, 300)}`;
  }
}

/** Every file-reading command on a 2 GB sparse file, /dev/zero and a FIFO: refused by name, within 5 s and 500 MB. */
export async function hostileFileClass(dir: string): Promise<{ count: ClassCount; slowestMs: number; peakRssMiB: number }> {
  makeHostileFiles(dir);
  const count = newCount();
  let slowestMs = 0;
  let peakRssMiB = 0;
  for (const command of FILE_READING_COMMANDS) {
    for (const file of hostileFiles(dir, command.name)) {
      const argv = command.args(file.path, dir);
      const watched = await runWatched(argv);
      const label = `${command.what} on ${file.kind}`;
      if (watched.ended !== 'exited') {
        const field = watched.ended === 'killed for memory' ? 'killedForMemory' : watched.ended === 'hung' ? 'hung' : 'untyped';
        add(count, watched.ended, { field, detail: watched.ended === 'crashed' ? watched.detail : label });
      } else {
        const { code, said, ms, peakRssMiB: peak } = watched.result;
        slowestMs = Math.max(slowestMs, ms);
        peakRssMiB = Math.max(peakRssMiB, peak);
        const named = said.includes(path.relative(dir, file.path)) || said.includes(path.basename(path.dirname(file.path)));
        if (code === 0) add(count, 'accepted', { field: 'untyped', detail: label });
        else if (STACK_LINE.test(said) || !HOSTILE_REFUSAL.test(said) || !named) add(count, 'unclear refusal', { field: 'untyped', detail: `${label}: ${said}` });
        else if (ms >= REFUSAL_MS) add(count, 'refused slowly', { field: 'hung', detail: `${label}: ${Math.round(ms)} ms` });
        else if (peak >= PEAK_MIB) add(count, 'refused over 500 MB', { field: 'killedForMemory', detail: `${label}: ${Math.round(peak)} MiB` });
        else add(count, 'refused by name');
      }
    }
  }
  return { count, slowestMs, peakRssMiB };
}

const digest = async (file: string): Promise<string> => createHash('sha256').update(await readFile(file)).digest('hex');

/**
 * Outputs that are the command's own input, four ways each: the same path, a path through `..`, a
 * symbolic link and a hard link (the links named with the output's extension, so only the overlap
 * can refuse them). The input's bytes must be the same afterwards.
 */
export async function overlapClass(dir: string): Promise<ClassCount> {
  mkdirSync(path.join(dir, 'sub'), { recursive: true });
  const buffer = path.join(dir, 'buffer.jsonl');
  const policy = path.join(dir, 'policy.dgp');
  const quiet = { out: () => {}, result: () => {}, progress: () => {} };
  if ((await main(['buffer', 'seed', '--env', 'shop', '--episodes', '4', '--seed', '1', '--out', buffer], quiet)) !== 0) throw new Error('robustness: seeding the overlap buffer failed');
  if ((await main(['train', '--env', 'shop', '--mode', 'bc', '--buffer', buffer, '--epochs', '1', '--out', policy, '--final-eval-episodes', '1'], quiet)) !== 0) throw new Error('robustness: the overlap policy failed to train');

  let made = 0;
  /** The four names of `input` for an output that needs the extension `ext`. */
  const aliases = (input: string, ext: string): { how: string; path: string }[] => {
    made++;
    const symlink = path.join(dir, `link-${made}${ext}`);
    const hardlink = path.join(dir, `hard-${made}${ext}`);
    symlinkSync(input, symlink);
    linkSync(input, hardlink);
    return [
      { how: 'the same path', path: input },
      { how: 'a path through ..', path: path.join(dir, 'sub', '..', path.basename(input)) },
      { how: 'a symbolic link', path: symlink },
      { how: 'a hard link', path: hardlink },
    ];
  };
  const cases: { what: string; input: string; ext: string; argv: (out: string) => string[] }[] = [
    { what: 'train bc --history over --buffer', input: buffer, ext: '.jsonl', argv: (out) => ['train', '--env', 'shop', '--mode', 'bc', '--buffer', buffer, '--epochs', '1', '--history', out] },
    { what: 'train dream --history over --buffer', input: buffer, ext: '.jsonl', argv: (out) => ['train', '--env', 'shop', '--mode', 'dream', '--algo', 'grpo', '--synthetic-budget', '50', '--experience', 'knn', '--buffer', buffer, '--history', out] },
    { what: 'train real --out over --init', input: policy, ext: '.dgp', argv: (out) => ['train', '--env', 'shop', '--mode', 'real', '--algo', 'grpo', '--real-budget', '50', '--init', policy, '--out', out] },
    { what: 'train bc --checkpoint over --buffer', input: buffer, ext: '.dgc', argv: (out) => ['train', '--env', 'shop', '--mode', 'bc', '--buffer', buffer, '--epochs', '1', '--checkpoint', out] },
    { what: 'experience fit --out over --buffer', input: buffer, ext: '.dgx', argv: (out) => ['experience', 'fit', '--env', 'shop', '--buffer', buffer, '--epochs', '1', '--out', out] },
    { what: 'buffer import --out over its input', input: buffer, ext: '.jsonl', argv: (out) => ['buffer', 'import', buffer, '--out', out] },
    { what: 'buffer seed --out over a store', input: buffer, ext: '.jsonl', argv: (out) => ['buffer', 'seed', '--env', 'shop', '--episodes', '2', '--out', out] },
  ];
  const count = newCount();
  for (const c of cases) {
    for (const alias of aliases(c.input, c.ext)) {
      const before = await digest(c.input);
      const said: string[] = [];
      let code: number;
      try {
        code = await main(c.argv(alias.path), { out: () => {}, result: () => {}, progress: (t) => said.push(t) });
      } catch (error) {
        add(count, 'threw', { field: 'untyped', detail: `${c.what} by ${alias.how}: ${String(error)}` });
        continue;
      }
      const label = `${c.what} by ${alias.how}`;
      if ((await digest(c.input)) !== before) add(count, 'input overwritten', { field: 'overwrittenInputs', detail: label });
      else if (code === 0) add(count, 'ran, input intact');
      else if (STACK_LINE.test(said.join('\n'))) add(count, 'stack trace', { field: 'untyped', detail: `${label}: ${said.join(' ')}` });
      else add(count, 'refused');
    }
  }
  return count;
}
