import type { Env } from '../../../src/core/types.ts';
import type { EnvSpec } from '../../../src/envs/spec.ts';

/**
 * `spec` whose pages "stop answering" at step `atStep` of the episodes of the tasks `fails` picks, as
 * the web env reports a page that hung: done, no reward, `info.error`; the first `times` episodes of
 * each such task (every one by default: a page that always hangs; 1: a page slow once). A set of task
 * ids picks those.
 */
export function failingOn(spec: EnvSpec, fails: ReadonlySet<string> | ((taskId: string) => boolean), atStep = 2, times = Infinity): EnvSpec {
  const played = new Map<string, number>();
  const picks = (id: string): boolean => {
    const n = played.get(id) ?? 0;
    played.set(id, n + 1);
    return n < times && (typeof fails === 'function' ? fails(id) : fails.has(id));
  };
  return {
    ...spec,
    createEnv: (options) => {
      const inner = spec.createEnv(options);
      let failing = false;
      let step = 0;
      const env: Env = {
        name: inner.name,
        reset: (task) => {
          failing = picks(task.id);
          step = 0;
          return inner.reset(task);
        },
        step: async (action) => {
          const result = await inner.step(action);
          return failing && ++step === atStep ? { ...result, reward: 0, done: true, info: { ...result.info, won: false, error: 'the page did not answer in 10 s' } } : result;
        },
        close: () => inner.close?.() ?? Promise.resolve(),
      };
      return env;
    },
  };
}
