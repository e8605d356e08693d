/**
 * `npm run bench -- room-hostile [--repeats 3]`: does a workshop room stay responsive while a client
 * sends it a hostile 4 MB chat request? The room server (kNN on a seeded shop buffer, as `serve`
 * answers) runs in a process of its own, as it does for a workshop; this process plays two clients:
 * one posts each hostile body (at once, and as a slow link would, 64 KB every 10 ms), the other asks
 * `GET /v1/models` again and again until that request is answered. Reports, per body, the wall-clock
 * time of every ping (median, 95th percentile, worst) and the hostile request's status; the bar is
 * the worst ping under 100 ms (issue 60). The unit test asserts the server's CPU per ping instead,
 * since the suite shares the machine; this bench is the wall clock, to be run on a quiet machine.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Task } from '../src/core/types.ts';
import { envSpec } from '../src/envs/registry.ts';
import { singleStepMessages } from '../src/experience/prompt.ts';
import { benchOptions } from './options.ts';
import { HOSTILE_ROOM_BODIES, postChat } from './hostile-inputs.ts';
import { median } from './stats.ts';

const SERVER = fileURLToPath(new URL('./room-hostile-server.ts', import.meta.url));

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
}

/** Starts the room in its own process; resolves with its URL and a way to end it. */
function startRoom(): Promise<{ url: string; stop: () => void }> {
  const child = fork(SERVER, [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    child.once('message', (message) => resolve({ url: (message as { url: string }).url, stop: () => child.kill('SIGTERM') }));
    child.once('exit', (code) => reject(new Error(`the room process ended (${code}) before it listened`)));
  });
}

async function ping(url: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${url}/v1/models`);
  await response.text();
  if (response.status !== 200) throw new Error(`/v1/models answered ${response.status}`);
  return performance.now() - started;
}

export async function roomHostileBench(args: string[]): Promise<unknown> {
  const { repeats } = benchOptions(args, { repeats: 3 });
  const spec = envSpec('shop');
  const task = spec.tasks('test')[0] as Task;
  const first = await spec.createEnv().reset(task);
  const openPrompt = JSON.stringify({ messages: singleStepMessages({ task, history: [], state: first, action: 'search[running shoes]', examples: [] }) }).slice(0, -'"}]}'.length);
  const room = await startRoom();
  try {
    const quiet: number[] = [];
    for (let i = 0; i < 50; i++) quiet.push(await ping(room.url));
    const bodies = [];
    for (const [label, make] of HOSTILE_ROOM_BODIES) {
      const body = Buffer.from(make(openPrompt));
      const walls: number[] = [];
      const statuses: number[] = [];
      for (let r = 0; r < repeats; r++) {
        for (const pauseMs of [0, 10]) {
          let finished = false;
          const hostile = postChat(room.url, body, pauseMs).finally(() => (finished = true));
          while (!finished) walls.push(await ping(room.url));
          statuses.push(await hostile);
        }
      }
      bodies.push({ body: label, bytes: body.length, statuses: [...new Set(statuses)], pings: walls.length, medianMs: median(walls), p95Ms: percentile(walls, 0.95), worstMs: Math.max(...walls) });
    }
    const worstMs = Math.max(...bodies.map((b) => b.worstMs));
    return { barMs: 100, quiet: { pings: quiet.length, medianMs: median(quiet), worstMs: Math.max(...quiet) }, bodies, worstMs, withinBar: worstMs < 100 };
  } finally {
    room.stop();
  }
}
