/**
 * `experience fit --init`: a fit that starts from a model's weights instead of fresh ones, and
 * says in its file which model that was.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../../src/cli/main.ts';
import { fitNeuralModel } from '../../../src/experience/neural/fit.ts';
import { inspectNeuralModel } from '../../../src/experience/neural/model-io.ts';
import { fitExperienceModel } from '../../../src/jobs/fit-experience-model.ts';
import { PRETRAINED_DIR_VARIABLE } from '../../../src/jobs/pretrained.ts';
import { useBackend } from '../../../src/platform/tf.ts';
import type { ReplayBuffer } from '../../../src/replay/retrieval.ts';
import { capture } from '../../cli-io.ts';
import { seededBuffer } from '../experience/fixtures.ts';

let buffer: ReplayBuffer;
beforeAll(async () => {
  await useBackend(['cpu']);
  buffer = await seededBuffer('shop', 10, 4);
});

describe('a fit from an initial model', () => {
  it('starts from its weights: with a vanishing step, the weights it ends with are the initial model\'s', async () => {
    const first = await fitNeuralModel({ buffer, env: 'shop', epochs: 1, seed: 5, validationShare: 0 });
    const tuned = await fitNeuralModel({ buffer, env: 'shop', epochs: 1, seed: 6, validationShare: 0, learningRate: 1e-12, init: first.model });
    const fresh = await fitNeuralModel({ buffer, env: 'shop', epochs: 1, seed: 6, validationShare: 0, learningRate: 1e-12 });
    const [a, b, c] = await Promise.all([first, tuned, fresh].map((f) => f.model.network.getWeights()));
    const largestGap = (x: typeof a, y: typeof a) => Math.max(...x!.map((w, i) => Math.max(...w.data.map((v, j) => Math.abs(v - (y![i]!.data[j] as number))))));
    expect(largestGap(a, b)).toBeLessThan(1e-6);
    expect(largestGap(a, c)).toBeGreaterThan(1e-3);
    // The initial model is read, never changed or freed.
    expect(largestGap(a, await first.model.network.getWeights())).toBe(0);
    for (const f of [first, tuned, fresh]) f.model.dispose();
  }, 120_000);

  it('begins its first epoch at a lower loss than a fit from nothing on the same buffer, and records where it started', async () => {
    const scratch = await fitExperienceModel({ env: 'shop', epochs: 1, seed: 3 }, { buffer, backend: 'cpu', source: 'cli' });
    const tuned = await fitExperienceModel({ env: 'shop', epochs: 1, seed: 3 }, { buffer, backend: 'cpu', source: 'cli', init: { name: 'scratch.dgx', bytes: scratch.bytes } });
    const loss = (f: typeof scratch) => f.fit.epochs[0]!.loss;
    // `scratch` is the fit from nothing with the same seed on the same buffer (a fit is deterministic
    // given its seed, so fitting it again would give the same first epoch).
    for (const head of ['line', 'action', 'transition'] as const) expect(loss(tuned)[head], head).toBeLessThan(loss(scratch)[head]);
    const header = inspectNeuralModel(tuned.bytes);
    expect(header.training['init']).toEqual({ name: 'scratch.dgx', weightsSha256: inspectNeuralModel(scratch.bytes).weightsSha256, buffer: null });
    for (const f of [scratch, tuned]) f.model.dispose();
  }, 120_000);
});

describe('experience fit --init', () => {
  it('takes a .dgx or the word pretrained, and refuses a model of another env', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'dreamgym-fit-init-'));
    const run = async (args: string[]) => {
      const io = capture();
      const code = await main(args, io);
      return { code, stdout: io.stdout.join('\n'), stderr: io.stderr.join('\n') };
    };
    const store = path.join(dir, 'shop.jsonl');
    expect((await run(['buffer', 'seed', '--env', 'shop', '--episodes', '4', '--out', store])).code).toBe(0);
    const base = ['experience', 'fit', '--env', 'shop', '--buffer', store, '--epochs', '1', '--backend', 'cpu', '--json'];
    expect((await run([...base, '--out', path.join(dir, 'first.dgx')])).code).toBe(0);
    const firstSha = inspectNeuralModel(readFileSync(path.join(dir, 'first.dgx'))).weightsSha256;

    const fromFile = await run([...base, '--out', path.join(dir, 'tuned.dgx'), '--init', path.join(dir, 'first.dgx')]);
    expect(fromFile.code, fromFile.stderr).toBe(0);
    expect(JSON.parse(fromFile.stdout).init.weightsSha256).toBe(firstSha);

    const shipped = mkdtempSync(path.join(dir, 'shipped-'));
    writeFileSync(path.join(shipped, 'model.dgx'), readFileSync(path.join(dir, 'first.dgx')));
    const before = process.env[PRETRAINED_DIR_VARIABLE];
    process.env[PRETRAINED_DIR_VARIABLE] = shipped;
    try {
      const fromPretrained = await run([...base, '--out', path.join(dir, 'tuned2.dgx'), '--init', 'pretrained']);
      expect(fromPretrained.code, fromPretrained.stderr).toBe(0);
      expect(JSON.parse(fromPretrained.stdout).init).toMatchObject({ name: `pretrained (${path.join(shipped, 'model.dgx')})`, weightsSha256: firstSha });
    } finally {
      if (before === undefined) delete process.env[PRETRAINED_DIR_VARIABLE];
      else process.env[PRETRAINED_DIR_VARIABLE] = before;
    }

    // A file that is no model is refused by its header, before the buffer is loaded.
    writeFileSync(path.join(dir, 'garbage.dgx'), 'garbage');
    const garbage = await run([...base, '--out', path.join(dir, 'tuned3.dgx'), '--init', path.join(dir, 'garbage.dgx')]);
    expect(garbage.code).toBe(2);
    expect(garbage.stderr).toMatch(/^error: --init .*garbage\.dgx: not a DreamGym experience model file/);

    const home = path.join(dir, 'home.jsonl');
    expect((await run(['buffer', 'seed', '--env', 'home', '--episodes', '1', '--out', home])).code).toBe(0);
    const other = await run(['experience', 'fit', '--env', 'home', '--buffer', home, '--epochs', '1', '--backend', 'cpu', '--out', path.join(dir, 'home.dgx'), '--init', path.join(dir, 'first.dgx')]);
    expect(other.code).toBe(2);
    expect(other.stderr).toContain(`--init ${path.join(dir, 'first.dgx')} simulates shop, not home`);
  }, 180_000);
});
