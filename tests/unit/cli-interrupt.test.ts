/**
 * Ctrl-C during `train`: the run stops after its current iteration and the command still writes
 * the policy and the history so far, then exits with the signal's code (130, 143) and a summary
 * that says it was interrupted; `buffer seed` keeps the episodes played and `experience fit` the
 * epochs done the same way. A web run keeps its browser until then; a command with no graceful
 * stop ends at once, its browser with it. No process the command started outlives it.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { inspectPolicyFile } from '../../src/policy/policy-file.ts';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { spawnCli as spawnCliProcess } from '../cli-process.ts';
import { main } from '../../src/cli/main.ts';
import { inspectNeuralModel } from '../../src/experience/neural/model-io.ts';
import { capture } from '../cli-io.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/**
 * The processes whose parent is `pid`, from /proc (no procps needed): each of its threads' `children`
 * file where the kernel has them (a few reads; the tests poll this while the machine runs hundreds of
 * processes), else every process's stat.
 */
function childrenOf(pid: number): number[] {
  let threads: string[];
  try {
    threads = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  if (threads.length > 0 && existsSync(`/proc/${pid}/task/${threads[0]}/children`)) {
    return threads.flatMap((thread) => {
      try {
        return readFileSync(`/proc/${pid}/task/${thread}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
      } catch {
        return [];
      }
    });
  }
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      try {
        // Field 4 of stat is the parent's pid; the command (field 2) is in parentheses and may hold spaces.
        const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid;
      } catch {
        return false;
      }
    })
    .map(Number);
}
/** `pid` and every process below it. */
function processTree(pid: number): number[] {
  return [pid, ...childrenOf(pid).flatMap(processTree)];
}
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** The commands this file started: one a failed test left running is killed, not left to load the machine for the rest of the suite. */
const started: ReturnType<typeof spawnCliProcess>[] = [];
const spawnCli = (args: string[]) => {
  const child = spawnCliProcess(args);
  started.push(child);
  return child;
};
afterEach(() => {
  for (const child of started.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

/**
 * Runs the CLI and sends it `signal` once its stderr first matches `when` (`onSignal` runs just
 * before, to look at the process then; `twice` sends the signal again 100 ms later, as a
 * terminal's Ctrl-C under `npm run` arrives); resolves with its exit code, what it printed, and the process
 * tree it had when signalled.
 */
async function interruptedRun(args: string[], when: RegExp, signal: NodeJS.Signals, onSignal: (child: ReturnType<typeof spawnCli>) => void = () => undefined, twice = false): Promise<{ code: number | null; stdout: string; stderr: string; tree: number[] }> {
  const child = spawnCli(args);
  let stdout = '';
  let stderr = '';
  let interrupted = false;
  let tree: number[] = [];
  child.stdout.on('data', (d: Buffer) => (stdout += d));
  child.stderr.on('data', (d: Buffer) => {
    stderr += d;
    if (!interrupted && when.test(stderr)) {
      interrupted = true;
      onSignal(child);
      tree = processTree(child.pid as number);
      child.kill(signal);
      // A moment later, not at once: two signals pending together arrive as one. Not 100 ms: a stop
      // that ends sooner (a fast machine) met the second signal while the process was exiting, and
      // Node, its handlers gone, died of it (exit null): npm passes Ctrl-C on within milliseconds.
      if (twice) setTimeout(() => child.kill(signal), 20);
    }
  });
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { code, stdout, stderr, tree };
}

describe('train interrupted', () => {
  it('writes the policy and history so far on SIGINT and exits 130', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'dreamgym-interrupt-'));
    const out = path.join(dir, 'p.dgp');
    const history = path.join(dir, 'h.json');
    // After the first update, so there is a policy worth keeping.
    const { code, stdout, stderr } = await interruptedRun(['train', '--env', 'shop', '--mode', 'real', '--algo', 'grpo', '--real-budget', '10000000', '--backend', 'wasm', '--seed', '1', '--set', 'tasksPerIteration=2,groupSize=4,parallelEnvs=8,epochs=1', '--out', out, '--history', history, '--json'], /iter 1:/, 'SIGINT');
    expect(stderr).toMatch(/interrupted \(SIGINT\): stopping after this iteration/);
    expect(code).toBe(130);
    const summary = JSON.parse(stdout.trim().split('\n').pop() as string) as { stopped?: boolean; iterations?: number; realTransitions: number };
    expect(summary.stopped).toBe(true);
    expect(summary.iterations).toBeGreaterThanOrEqual(1);
    expect(summary.realTransitions).toBeLessThan(10_000_000);
    expect(inspectPolicyFile(new Uint8Array(readFileSync(out))).env).toBe('shop');
    expect(existsSync(history)).toBe(true);
    expect(JSON.parse(readFileSync(history, 'utf8'))).toMatchObject({ stopped: true });
  }, 180_000);

  it('keeps a web run\'s policy and history on SIGTERM: the browser stays up until the command has written them, then ends with it', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'dreamgym-web-stop-'));
    const out = path.join(dir, 'p.dgp');
    const history = path.join(dir, 'h.json');
    let browsers: number[] = [];
    const { code, stdout, stderr } = await interruptedRun(['train', '--env', 'web', '--tasks', '@widgets', '--mode', 'real', '--algo', 'grpo', '--real-budget', '10000000', '--backend', 'wasm', '--seed', '1', '--set', 'tasksPerIteration=2,groupSize=2,parallelEnvs=4,epochs=1', '--final-eval-episodes', '2', '--out', out, '--history', history, '--json'], /iter 1:/, 'SIGTERM', (child) => {
      browsers = childrenOf(child.pid as number).filter((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('chromium'));
    });
    expect(stderr).toMatch(/interrupted \(SIGTERM\): stopping after this iteration/);
    expect(stderr).not.toMatch(/site|page-crash|closed/i);
    expect(code).toBe(143);
    expect(JSON.parse(stdout.trim().split('\n').pop() as string)).toMatchObject({ stopped: true });
    expect(inspectPolicyFile(new Uint8Array(readFileSync(out))).env).toBe('web');
    expect(JSON.parse(readFileSync(history, 'utf8'))).toMatchObject({ stopped: true });
    expect(browsers.length).toBeGreaterThan(0);
    await expect.poll(() => browsers.filter(alive), { timeout: 10_000 }).toEqual([]);
  }, 180_000);

  it('keeps the episodes `buffer seed` played before SIGTERM, and says it stopped', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'dreamgym-seed-stop-'));
    const out = path.join(dir, 'b.jsonl');
    const { code, stdout, stderr } = await interruptedRun(['buffer', 'seed', '--env', 'shop', '--episodes', '200', '--seed', '1', '--out', out, '--json'], /seeded [1-9]\d*\/200 episodes/, 'SIGTERM');
    expect(stderr).toMatch(/interrupted \(SIGTERM\): stopping after this batch/);
    expect(code).toBe(143);
    const summary = JSON.parse(stdout.trim().split('\n').pop() as string) as { stopped?: boolean; episodes: number; transitions: number };
    expect(summary.stopped).toBe(true);
    expect(summary.episodes).toBeGreaterThan(0);
    expect(summary.episodes).toBeLessThan(200);
    const lines = readFileSync(out, 'utf8').trim().split('\n');
    // The store's header line, then one line per transition.
    expect(lines.length - 1).toBe(summary.transitions);
  }, 120_000);

  it('takes the same signal twice within a moment (Ctrl-C reaches `npm run` and the command, and npm passes its own on) as one stop', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'dreamgym-seed-twice-'));
    const out = path.join(dir, 'b.jsonl');
    const { code, stdout, stderr } = await interruptedRun(['buffer', 'seed', '--env', 'shop', '--episodes', '3000', '--seed', '1', '--out', out, '--json'], /seeded [1-9]\d*\/3000 episodes/, 'SIGINT', undefined, true);
    expect(stderr).toMatch(/interrupted \(SIGINT\): stopping after this batch/);
    expect(stderr).not.toMatch(/quitting now/);
    expect(code).toBe(130);
    const summary = JSON.parse(stdout.trim().split('\n').pop() as string) as { stopped?: boolean; transitions: number };
    expect(summary.stopped).toBe(true);
    expect(readFileSync(out, 'utf8').trim().split('\n').length - 1).toBe(summary.transitions);
  }, 120_000);

  it('writes the model `experience fit` fitted before SIGINT, saying it is partial there and in its file, and leaves no process behind', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'dreamgym-fit-stop-'));
    const buffer = path.join(dir, 'b.jsonl');
    const out = path.join(dir, 'm.dgx');
    expect(await main(['buffer', 'seed', '--env', 'shop', '--episodes', '12', '--seed', '1', '--out', buffer], capture())).toBe(0);
    // Once the first epoch is done, so there is a model worth keeping.
    const { code, stdout, stderr, tree } = await interruptedRun(['experience', 'fit', '--env', 'shop', '--buffer', buffer, '--epochs', '100', '--backend', 'wasm', '--out', out, '--json'], /epoch 1\/100 step (\d+)\/\1:/, 'SIGINT');
    expect(stderr).toMatch(/interrupted \(SIGINT\): stopping after this epoch \(the model fitted so far is still written to .*m\.dgx\)/);
    expect(code).toBe(130);
    const result = JSON.parse(stdout.trim().split('\n').pop() as string) as { stopped?: boolean; stoppedAfter: number; epochs: number; history: unknown[] };
    expect(result).toMatchObject({ stopped: true, epochs: 100 });
    expect(result.stoppedAfter).toBeGreaterThanOrEqual(1);
    expect(result.stoppedAfter).toBeLessThan(100);
    expect(stderr).toContain(`wrote ${out}`);
    expect(stderr).toContain(`(stopped after ${result.stoppedAfter} of 100 epochs; its training record says so)`);
    const training = inspectNeuralModel(new Uint8Array(readFileSync(out))).training as { epochs: number; stoppedAfter: number; history: unknown[] };
    expect(training).toMatchObject({ epochs: 100, stoppedAfter: result.stoppedAfter });
    expect(training.history).toHaveLength(result.stoppedAfter);
    expect(tree.length).toBeGreaterThan(0);
    await expect.poll(() => tree.filter(alive), { timeout: 10_000 }).toEqual([]);
  }, 180_000);

  it('ends a web rollout on SIGTERM with 143, saying so, and its browser with it', async () => {
    const child = spawnCli(['rollout', '--env', 'web', '--tasks', '@widgets', '--policy', 'random', '--episodes', '100000', '--json']);
    let stderr = '';
    let browsers: number[] = [];
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    await expect.poll(() => (browsers = childrenOf(child.pid as number).filter((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('chromium'))).length, { timeout: 60_000, interval: 200 }).toBeGreaterThan(0);
    child.kill('SIGTERM');
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(143);
    expect(stderr).toMatch(/stopped \(SIGTERM\): quitting now/);
    expect(stderr).not.toMatch(/site|usage/i);
    await expect.poll(() => browsers.filter(alive), { timeout: 10_000 }).toEqual([]);
  }, 120_000);

  it('stops the process doing the work when `npm run cli` is stopped, and still writes the policy', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'dreamgym-npm-stop-'));
    const out = path.join(dir, 'p.dgp');
    const npm = spawn('npm', ['run', '-s', 'cli', '--', 'train', '--env', 'shop', '--mode', 'real', '--algo', 'grpo', '--real-budget', '10000000', '--backend', 'wasm', '--set', 'tasksPerIteration=2,groupSize=4,parallelEnvs=8,epochs=1', '--out', out], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    await new Promise<void>((resolve) =>
      npm.stderr.on('data', (d: Buffer) => {
        stderr += d;
        if (/iter 1:/.test(stderr)) resolve();
      }),
    );
    // The worker is npm's own child: the script execs node, with no wrapper between them.
    const [worker] = childrenOf(npm.pid as number);
    if (worker === undefined) throw new Error('npm started no process');
    expect(alive(worker)).toBe(true);
    npm.kill('SIGTERM');
    await new Promise((resolve) => npm.on('close', resolve));
    await expect.poll(() => alive(worker), { timeout: 30_000 }).toBe(false);
    expect(stderr).toMatch(/interrupted \(SIGTERM\)/);
    expect(inspectPolicyFile(new Uint8Array(readFileSync(out))).env).toBe('shop');
  }, 180_000);
});
