/**
 * A graceful stop that passes its deadline ends the command with the signal's code, after its last
 * save (what a finished iteration left) has had its moment (stop-signals.ts, `train`'s atDeadline).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const FIXTURE = fileURLToPath(new URL('./fixtures/stop-signals/stuck-command.ts', import.meta.url));

describe('the graceful stop deadline', () => {
  it('runs the last save, then quits with 128 + the signal', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'dreamgym-deadline-')), 'kept.txt');
    const child = spawn(process.execPath, ['--import', 'tsx', FIXTURE, file, '300'], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => {
      stderr += d;
      if (stderr === 'working\n') child.kill('SIGTERM');
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(stderr).toMatch(/stopping \(SIGTERM\)\nthe graceful stop did not end in 0\.3 s: quitting now\n$/);
    expect(code).toBe(143);
    expect(existsSync(file) && readFileSync(file, 'utf8')).toBe('the last finished iteration');
  }, 60_000);
});
