/**
 * `train --checkpoint FILE --resume`: a run killed outright (SIGKILL, nothing written on the way
 * out) goes on from its last checkpoint and ends with the same greedy-action digest as the same run
 * left alone; resuming the wrong way is refused with what to do.
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { capture } from '../cli-io.ts';
import { spawnCli } from '../cli-process.ts';

const RUN = ['train', '--env', 'shop', '--mode', 'real', '--algo', 'grpo', '--real-budget', '500', '--backend', 'wasm', '--set', 'tasksPerIteration=2,groupSize=4,parallelEnvs=8,epochs=1', '--final-eval-episodes', '20', '--json'];

interface Summary {
  realTransitions: number;
  eval: { actionsDigest: string; successRate: number };
}

const summaryOf = (stdout: string) => JSON.parse(stdout.trim().split('\n').pop() as string) as Summary;

/**
 * The CLI in-process: a child process would spend its ~5 s of CPU loading tfjs and the CLI. Only the
 * run that is killed outright needs a process of its own; the resume reads the checkpoint that
 * process left, as a new process would.
 */
async function inProcess(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const io = capture();
  const code = await main(args, io);
  return { code, stdout: io.stdout.join('\n'), stderr: io.stderr.join('\n') };
}
const refused = inProcess;

describe('train --checkpoint and --resume', () => {
  it('a run killed mid-way resumes from its checkpoint and ends with the uninterrupted run digest', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'dreamgym-resume-'));
    const checkpoint = path.join(dir, 'run.dgc');
    // The run left alone, in-process (the same core; a process would only add its start-up).
    const io = capture();
    expect(await main([...RUN, '--seed', '2'], io), io.stderr.join('\n')).toBe(0);
    const whole = { stdout: io.stdout.join('\n') };

    const child = spawnCli([...RUN, '--seed', '2', '--checkpoint', checkpoint, '--checkpoint-every', '0']);
    let stderr = '';
    let killed = false;
    child.stderr.on('data', (d: Buffer) => {
      stderr += d;
      if (!killed && /iter 3:/.test(stderr)) {
        killed = true;
        child.kill('SIGKILL');
      }
    });
    await new Promise((resolve) => child.on('close', resolve));
    expect(killed).toBe(true);
    expect(existsSync(checkpoint)).toBe(true);

    const resumed = await inProcess([...RUN, '--seed', '2', '--checkpoint', checkpoint, '--resume']);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toMatch(/resuming from .*run\.dgc: [23] iterations done/); // killed as iteration 3 was printed: its save may land first
    expect(summaryOf(resumed.stdout).eval.actionsDigest).toBe(summaryOf(whole.stdout).eval.actionsDigest);
    expect(summaryOf(resumed.stdout).realTransitions).toBe(summaryOf(whole.stdout).realTransitions);

    // Another seed is another run: refused, saying which setting differs.
    const other = await refused([...RUN, '--seed', '3', '--checkpoint', checkpoint, '--resume']);
    expect(other.code).not.toBe(0);
    expect(other.stderr).toMatch(/the checkpoint is of another run: seed is 2 there, 3 here/);
  }, 240_000);

  it('refuses --resume without a checkpoint, a missing one, and checkpoints in the offline modes', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'dreamgym-resume-'));
    const cases: [string[], RegExp][] = [
      [[...RUN, '--resume'], /--resume goes on from a checkpoint: name it with --checkpoint FILE\.dgc/],
      [[...RUN, '--checkpoint', path.join(dir, 'none.dgc'), '--resume'], /there is no checkpoint at .*none\.dgc yet/],
      [[...RUN, '--checkpoint', path.join(dir, 'run.json')], /--checkpoint must name a \.dgc file/],
      [[...RUN, '--checkpoint', path.join(dir, 'run.dgc'), '--checkpoint-every', 'soon'], /--checkpoint-every must be a number of seconds/],
      [['train', '--env', 'shop', '--mode', 'bc', '--buffer', 'b.jsonl', '--checkpoint', path.join(dir, 'run.dgc')], /--checkpoint is for the RL modes/],
    ];
    for (const [args, message] of cases) {
      const run = await refused(args);
      expect(run.code, args.join(' ')).not.toBe(0);
      expect(run.stderr).toMatch(message);
    }
  }, 120_000);
});
