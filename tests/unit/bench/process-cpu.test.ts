import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { cpuMsPer, processTreeCpu } from '../../../bench/process-cpu.ts';

describe('processTreeCpu', () => {
  it("counts a child's CPU under the child's kind, apart from this process's", async () => {
    // The child spins for 400 ms of CPU, says so, then waits to be killed.
    const child = spawn(process.execPath, ['-e', "const t = process.cpuUsage(); while ((process.cpuUsage(t).user) < 400000); console.log('spun'); setInterval(() => {}, 1000);"], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      await once(child.stdout, 'data');
      const cpu = processTreeCpu()?.byKind;
      expect(cpu).not.toBeNull();
      expect(cpu?.get('child node')).toBeGreaterThanOrEqual(350);
      expect(cpu?.get('node')).toBeGreaterThan(0);
    } finally {
      child.kill();
    }
  });

  it("splits a process's CPU by thread: its main thread apart from its helpers", async () => {
    const child = spawn(process.execPath, ['-e', "const t = process.cpuUsage(); while ((process.cpuUsage(t).user) < 400000); console.log('spun'); setInterval(() => {}, 1000);"], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      await once(child.stdout, 'data');
      const reading = processTreeCpu();
      const threads = reading?.byThread;
      expect(threads?.get('child node · main')).toBeGreaterThanOrEqual(350);
      // Node's helper threads are named `node`: whatever they did is not counted as the main thread's.
      const byKind = reading?.byKind;
      const childThreads = [...(threads ?? new Map<string, number>())].filter(([key]) => key.startsWith('child node · '));
      expect(childThreads.reduce((sum, [, ms]) => sum + ms, 0)).toBeLessThanOrEqual((byKind?.get('child node') ?? 0) + 20);
    } finally {
      child.kill();
    }
  });

  it('gives CPU per unit of work by kind, leaving out kinds that did not work', () => {
    const before = new Map([['node', 100], ['chromium renderer', 50], ['idle', 7]]);
    const after = new Map([['node', 300], ['chromium renderer', 450], ['idle', 7], ['chromium gpu-process', 20]]);
    expect(cpuMsPer(before, after, 100)).toEqual({ node: 2, 'chromium renderer': 4, 'chromium gpu-process': 0.2 });
  });
});
