/**
 * `train --train-only relations`: an RL update changes the relation weights and the value head and
 * leaves the words' path as it started; without it every path moves.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../../src/cli/main.ts';
import { useBackend } from '../../../src/platform/tf.ts';
import { checkPolicyWeights } from '../../../src/policy/policy-file.ts';
import { capture } from '../../cli-io.ts';

beforeAll(async () => {
  await useBackend(['cpu']);
});

const dir = mkdtempSync(path.join(tmpdir(), 'dreamgym-train-only-'));

async function trained(name: string, extra: string[]): Promise<Map<string, Float32Array>> {
  const out = path.join(dir, `${name}.dgp`);
  const io = capture();
  const code = await main(['train', '--env', 'shop', '--mode', 'real', '--algo', 'ppo', '--real-budget', '300', '--backend', 'cpu', '--seed', '3', '--set', 'episodesPerIteration=8,parallelEnvs=8,epochs=1', '--final-eval-episodes', '4', '--out', out, ...extra], io);
  expect(code, io.stderr.join('\n')).toBe(0);
  return new Map(checkPolicyWeights(new Uint8Array(readFileSync(out))).weights.map((w) => [w.name, w.data]));
}

const moved = (a: Float32Array, b: Float32Array): number => a.reduce((m, x, i) => Math.max(m, Math.abs(x - (b[i] as number))), 0);

describe('train --train-only relations', () => {
  it('changes only the relation weights and the value head', async () => {
    const start = await trained('start', ['--iterations', '0']);
    const relations = await trained('relations', ['--train-only', 'relations']);
    const all = await trained('all', []);
    for (const [name, before] of start) {
      const changedByRelations = moved(before, relations.get(name) as Float32Array);
      const changedByAll = moved(before, all.get(name) as Float32Array);
      if (name === 'score/relation_kernel' || name.startsWith('value/')) expect(changedByRelations, name).toBeGreaterThan(0);
      else expect(changedByRelations, name).toBe(0);
      // Biases start at 0 and may stay there where no sample reaches them; the kernels all move.
      if (name.endsWith('kernel')) expect(changedByAll, name).toBeGreaterThan(0);
    }
  }, 240_000);

  it('is refused where no RL update runs, and names its values', async () => {
    const io = capture();
    expect(await main(['train', '--env', 'shop', '--mode', 'real', '--algo', 'ppo', '--real-budget', '100', '--train-only', 'words'], io)).toBe(2);
    expect(io.stderr.join('\n')).toMatch(/--train-only.*relations/);
    const offline = capture();
    expect(await main(['train', '--env', 'shop', '--mode', 'bc', '--buffer', 'x.jsonl', '--train-only', 'relations'], offline)).toBe(2);
    expect(offline.stderr.join('\n')).toContain('--train-only is a PPO/GRPO setting');
  });
});
