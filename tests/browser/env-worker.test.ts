import { wrap } from 'comlink';
import { describe, expect, it } from 'vitest';
import type { EnvSession } from '../../src/services/env-session.ts';

describe('the environment worker (real Chromium, real Worker, comlink)', () => {
  const worker = new Worker(new URL('../../workers/env.worker.ts', import.meta.url), { type: 'module' });
  const session = wrap<EnvSession>(worker);

  it('lists the environments with their splits', async () => {
    const envs = await session.listEnvs();
    expect(envs.map((e) => e.name)).toEqual(['shop', 'home', 'web']);
    expect(envs[0]!.splits).toContainEqual({ name: 'test', size: 500 });
  });

  it('plays a shop episode inside the worker', async () => {
    const start = await session.start('shop', 'test', 0);
    expect(start.observation.actions).toEqual(['search[...]']);
    expect(start.task).not.toHaveProperty('goal');
    const searched = await session.step('search[running shoes]');
    expect(searched.result.info.valid).toBe(true);
    expect(searched.result.observation.text).toContain('page: results');
    const bad = await session.step('click[not on this page]');
    expect(bad.result.info.valid).toBe(false);
    expect(bad.result.observation.text).toBe(searched.result.observation.text);
  });

  it('lets the oracle finish a home episode with reward 1', async () => {
    await session.start('home', 'valid-unseen', 1);
    let last;
    for (let i = 0; i < 60; i++) {
      last = (await session.oracleStep()).result;
      if (last.done) break;
    }
    expect(last?.done).toBe(true);
    expect(last?.reward).toBe(1);
    expect(last?.info.won).toBe(true);
  });

  it('reports errors from the worker as rejections with their message', async () => {
    await expect(session.start('nope', 'test', 0)).rejects.toThrow(/unknown environment "nope"/);
  });
});
