/**
 * `pretrain` cannot play a held-out family, the bundled suite or a --site folder: the command
 * refuses every site flag, and the world its job plays refuses any task that is not a pretraining
 * family's on the pretraining site, before a page is asked.
 */
import { describe, expect, it } from 'vitest';
import { main } from '../../../src/cli/main.ts';
import { generatedSites, HELD_OUT_FAMILIES, PRETRAINING_FAMILIES } from '../../../src/envs/web/generated/index.ts';
import { bundledSuiteEnvironment } from '../../../src/envs/web/index.ts';
import { pretrainingEnvironment, pretrainingFamily } from '../../../src/jobs/pretrain-env.ts';
import { capture } from '../../cli-io.ts';

describe('pretrain\'s command', () => {
  it.each([
    [['--site', '@generated-held-out']],
    [['--site', '@generated']],
    [['--site', 'examples/foreign-sites']],
    [['--tasks', '@app']],
  ])('refuses %j', async (flags) => {
    const io = capture();
    expect(await main(['pretrain', '--out', '/tmp/never-made', ...flags], io)).toBe(2);
    expect(io.stderr.join('\n')).toMatch(/^error: pretrain plays only the generated apps of the pretraining families: it takes no --site or --tasks/);
  });

  it('takes no --env', async () => {
    const io = capture();
    expect(await main(['pretrain', '--out', '/tmp/never-made', '--env', 'shop'], io)).toBe(2);
    expect(io.stderr.join('\n')).toMatch(/--env/);
  });
});

describe('pretrain\'s world', () => {
  it('holds the pretraining families alone', () => {
    const world = pretrainingEnvironment(() => undefined);
    const families = new Set(world.tasks('test').map(pretrainingFamily));
    expect(families).toEqual(new Set(PRETRAINING_FAMILIES));
  });

  it('refuses a held-out family\'s task and a suite task, before any page, even in an env made from it', async () => {
    const heldOut = generatedSites({ families: 'held-out' }).tasks('test');
    for (const family of HELD_OUT_FAMILIES) {
      const task = heldOut.find((t) => t.id.startsWith(`${family}:`));
      expect(() => pretrainingFamily(task!)).toThrow(`pretrain plays only the generated pretraining families (${PRETRAINING_FAMILIES.join(', ')}); it was asked to play ${task!.id} (site "generated-held-out"`);
    }
    const suiteTask = bundledSuiteEnvironment().tasks('test')[0]!;
    expect(() => pretrainingFamily(suiteTask)).toThrow(`it was asked to play ${suiteTask.id} (site "suite"`);
    const counted: string[] = [];
    const env = pretrainingEnvironment((family) => counted.push(family)).createEnv();
    await expect(env.reset(heldOut[0]!)).rejects.toThrow(/pretrain plays only the generated pretraining families/);
    expect(counted).toEqual([]);
    await env.close?.();
  });
});
