import type { Transition } from '../../../src/core/types.ts';

/** A small well-formed transition; `n` makes it distinct. */
export function transition(n: number, overrides: Partial<Transition> = {}): Transition {
  return {
    runId: 'run-a',
    taskId: `task-${n % 5}`,
    episodeId: `run-a/${Math.floor(n / 10)}`,
    env: 'shop',
    instruction: `find item ${n}`,
    history: [],
    state: { text: `page: search\ninstruction: find item ${n}\n[1] search: search`, actions: ['search[...]'] },
    action: `search[item ${n}]`,
    next: { text: `page: results\ninstruction: find item ${n}\n[1] button: Back to Search`, actions: ['click[Back to Search]'] },
    reward: 0,
    done: false,
    source: 'real',
    createdAt: 1_700_000_000_000 + n,
    ...overrides,
  };
}
