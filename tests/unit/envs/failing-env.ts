import type { Env } from '../../../src/core/types.ts';
import type { EnvSpec } from '../../../src/envs/spec.ts';

/**
 * `spec` whose pages "stop answering" at the second step of the `failing` tasks' episodes, as the web
 * env reports a page that hung: done, no reward, `info.error`.
 */
export function failingOn(spec: EnvSpec, failing: ReadonlySet<string>): EnvSpec {
  return {
    ...spec,
    createEnv: (options) => {
      const inner = spec.createEnv(options);
      let fails = false;
      let step = 0;
      const env: Env = {
        name: inner.name,
        reset: (task) => {
          fails = failing.has(task.id);
          step = 0;
          return inner.reset(task);
        },
        step: async (action) => {
          const result = await inner.step(action);
          return fails && ++step === 2 ? { ...result, reward: 0, done: true, info: { ...result.info, won: false, error: 'the page did not answer in 10 s' } } : result;
        },
      };
      return env;
    },
  };
}
