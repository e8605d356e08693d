/**
 * Ctrl-C during `train`: the run stops after its current iteration and the command still writes
 * the policy and the history so far, then exits 0 with a summary that says it was interrupted.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { inspectPolicyFile } from '../../src/policy/policy-file.ts';
import { spawnCli } from '../cli-process.ts';

describe('train interrupted', () => {
  it('writes the policy and history so far on SIGINT and exits 0', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'dreamgym-interrupt-'));
    const out = path.join(dir, 'p.dgp');
    const history = path.join(dir, 'h.json');
    const child = spawnCli(['train', '--env', 'shop', '--mode', 'real', '--algo', 'grpo', '--real-budget', '10000000', '--backend', 'cpu', '--seed', '1', '--set', 'tasksPerIteration=2,groupSize=4,parallelEnvs=8,epochs=1', '--out', out, '--history', history, '--json']);
    let stdout = '';
    let stderr = '';
    let interrupted = false;
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => {
      stderr += d;
      // After the first update, so there is a policy worth keeping.
      if (!interrupted && /iter 1:/.test(stderr)) {
        interrupted = true;
        child.kill('SIGINT');
      }
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(stderr).toMatch(/interrupted: stopping after this iteration/);
    expect(code).toBe(0);
    const summary = JSON.parse(stdout.trim().split('\n').pop() as string) as { stopped?: boolean; iterations?: number; realTransitions: number };
    expect(summary.stopped).toBe(true);
    expect(summary.iterations).toBeGreaterThanOrEqual(1);
    expect(summary.realTransitions).toBeLessThan(10_000_000);
    expect(inspectPolicyFile(new Uint8Array(readFileSync(out))).env).toBe('shop');
    expect(existsSync(history)).toBe(true);
    expect(JSON.parse(readFileSync(history, 'utf8'))).toMatchObject({ stopped: true });
  }, 180_000);
});
