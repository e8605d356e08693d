/**
 * CPU time of this process and of every process it started (Chromium's browser, renderer, GPU and
 * utility processes), by kind, from Linux's `/proc`; null elsewhere. A bench divides the change over
 * a run by the steps it made, which says where a step's CPU goes, and, unlike the machine's busy
 * cores, is not moved by other work on the machine (only slowed).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { trimEndOf } from '../src/core/text.ts';

/** Linux's clock ticks per second for `/proc/PID/stat` times (USER_HZ, 100 on every mainstream build). */
const TICKS_PER_SECOND = 100;

interface ProcessInfo {
  parent: number;
  cpuMs: number;
  kind: string;
}

/** A `/proc/…/stat` line: its name (between the parentheses), parent pid and CPU milliseconds. */
function readStat(file: string): { name: string; parent: number; cpuMs: number } {
  const stat = readFileSync(file, 'utf8');
  // Fields after the command name, which may itself hold spaces and parentheses.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const cpuTicks = Number(fields[11]) + Number(fields[12]);
  return { name: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')), parent: Number(fields[1]), cpuMs: (cpuTicks * 1000) / TICKS_PER_SECOND };
}

function readProcess(pid: number): ProcessInfo | null {
  try {
    const { parent, cpuMs } = readStat(`/proc/${pid}/stat`);
    // Chromium's children rewrite their command line as one space-separated string.
    const commandLine = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split(/[\0 ]/);
    return { parent, cpuMs, kind: processKind(pid, commandLine) };
  } catch {
    return null; // gone meanwhile
  }
}

/**
 * A process's CPU by thread: `main` for its first thread, else the thread's name as Linux keeps it
 * (15 characters, a trailing number dropped so that a pool's threads add up: `ThreadPoolForeg`,
 * `Chrome_ChildIOT`; Node names its GC and platform helpers `node`).
 */
function readThreads(pid: number): Map<string, number> {
  const threads = new Map<string, number>();
  let ids: string[];
  try {
    ids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return threads; // gone meanwhile
  }
  for (const tid of ids) {
    try {
      const { name, cpuMs } = readStat(`/proc/${pid}/task/${tid}/stat`);
      const thread = tid === String(pid) ? 'main' : trimEndOf(name, ' \t0123456789') || name;
      threads.set(thread, (threads.get(thread) ?? 0) + cpuMs);
    } catch {
      // the thread ended meanwhile
    }
  }
  return threads;
}

/** `node` for this process; `chromium` and its `--type` (and utility sub-type); else `child` and the program's name. */
function processKind(pid: number, commandLine: string[]): string {
  if (pid === process.pid) return 'node';
  const program = commandLine[0] ?? '';
  const type = commandLine.find((arg) => arg.startsWith('--type='))?.slice('--type='.length);
  if (!/chrom/i.test(program)) return `child ${program.split('/').pop() || 'process'}`;
  if (type === undefined) return 'chromium browser';
  if (type !== 'utility') return `chromium ${type}`;
  const service = commandLine.find((arg) => arg.startsWith('--utility-sub-type='))?.split('.').pop();
  return `chromium ${service ?? 'utility'}`;
}

/**
 * Milliseconds of CPU (user + system) this process and its descendants have used so far, from one
 * walk of `/proc`: summed by kind, and by kind and thread (`chromium renderer · main`); null where
 * `/proc` is not there. A process that ended meanwhile is not counted.
 */
export function processTreeCpu(): { byKind: Map<string, number>; byThread: Map<string, number> } | null {
  if (!existsSync('/proc/self/stat')) return null;
  const processes = new Map<number, ProcessInfo>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const info = readProcess(Number(entry));
    if (info) processes.set(Number(entry), info);
  }
  const mine = new Set<number>([process.pid]);
  // Parents have lower pids only until pids wrap, so grow the set until it stops growing.
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, info] of processes) {
      if (!mine.has(pid) && mine.has(info.parent)) {
        mine.add(pid);
        grew = true;
      }
    }
  }
  const byKind = new Map<string, number>();
  const byThread = new Map<string, number>();
  const add = (into: Map<string, number>, key: string, ms: number): void => void into.set(key, (into.get(key) ?? 0) + ms);
  for (const pid of mine) {
    const info = processes.get(pid);
    if (!info) continue;
    add(byKind, info.kind, info.cpuMs);
    for (const [thread, ms] of readThreads(pid)) add(byThread, `${info.kind} · ${thread}`, ms);
  }
  return { byKind, byThread };
}

/** CPU milliseconds per unit of work between two readings, by kind, rounded; kinds under 0.05 ms left out. */
export function cpuMsPer(before: Map<string, number>, after: Map<string, number>, units: number): Record<string, number> {
  const per: Record<string, number> = {};
  for (const [kind, ms] of after) {
    const share = (ms - (before.get(kind) ?? 0)) / units;
    if (share >= 0.05) per[kind] = Number(share.toFixed(2));
  }
  return per;
}
