/**
 * `--site @generated` and `--site @generated-held-out`: every command's --site names the generated
 * apps of the pretraining families or of the held-out ones, and nothing crosses between them.
 */
import { describe, expect, it } from 'vitest';
import { main } from '../../../src/cli/main.ts';
import type { WebGoal } from '../../../src/envs/web/site.ts';
import { HELD_OUT_FAMILIES, PRETRAINING_FAMILIES } from '../../../src/envs/web/generated/index.ts';
import { siteEnvironment, siteOptions } from '../../../src/jobs/site.ts';
import { capture } from '../../cli-io.ts';

const familiesOf = (dir: string, tasks: string[] = []) => new Set(siteEnvironment(dir, tasks).tasks('test').map((t) => (t.goal as WebGoal).task));

describe('--site @generated', () => {
  it('names the pretraining families, and @generated-held-out the held-out ones', () => {
    expect(familiesOf('@generated')).toEqual(new Set(PRETRAINING_FAMILIES));
    expect(familiesOf('@generated-held-out')).toEqual(new Set(HELD_OUT_FAMILIES));
    const sites = new Set(siteEnvironment('@generated-held-out', []).tasks('test').map((t) => (t.goal as WebGoal).site));
    expect(sites).toEqual(new Set(['generated-held-out']));
  });

  it('keeps the families --tasks names, and refuses a held-out one on the pretraining site', () => {
    expect(familiesOf('@generated', ['forms', 'tables'])).toEqual(new Set(['forms', 'tables']));
    expect(() => siteEnvironment('@generated', ['cart'])).toThrow(/site "generated" has no task "cart"/);
  });

  it('refuses a mistyped name and a --site-url, which a generated site has no use for', () => {
    expect(() => siteOptions(['--site', '@generatd'])).toThrow(/--site @generatd names no generated site; use @generated or @generated-held-out/);
    expect(() => siteOptions(['--site', '@generated', '--site-url', 'http://127.0.0.1:1'])).toThrow(/drop --site-url/);
    expect(siteOptions(['--site', '@generated', '--tasks', 'forms']).site).toEqual({ dir: '@generated', tasks: ['forms'] });
  });

  it('is the web env of any command, and put back after it', async () => {
    const io = capture();
    expect(await main(['envs', '--site', '@generated-held-out'], io), io.stderr.join('\n')).toBe(0);
    expect(io.stdout.join('\n')).toMatch(/Generated web apps \(cart, messaging\), held out of pretraining/);
    const after = capture();
    await main(['envs'], after);
    expect(after.stdout.join('\n')).not.toMatch(/Generated web apps/);
  });
});
