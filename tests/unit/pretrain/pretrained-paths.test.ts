/**
 * The word `pretrained` in place of a file: one place says where the weights are (the shipped
 * public/pretrained/web/, or DREAMGYM_PRETRAINED_DIR), and every command that takes it refuses
 * with how to make them when they are absent.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../../../src/cli/main.ts';
import { PRETRAINED_DIR_VARIABLE, pretrainedPaths, SHIPPED_PRETRAINED_DIR } from '../../../src/jobs/pretrained.ts';
import { capture } from '../../cli-io.ts';

const root = path.resolve(import.meta.dirname, '../../..');

describe('pretrainedPaths', () => {
  it('is public/pretrained/web/ of the checkout (what the app build ships), or the folder the variable names', () => {
    expect(SHIPPED_PRETRAINED_DIR).toBe(path.join(root, 'public/pretrained/web'));
    expect(pretrainedPaths(undefined, {}).dir).toBe(SHIPPED_PRETRAINED_DIR);
    const named = pretrainedPaths(undefined, { [PRETRAINED_DIR_VARIABLE]: '/somewhere/else' });
    expect(named).toEqual({ dir: '/somewhere/else', policy: '/somewhere/else/policy.dgp', model: '/somewhere/else/model.dgx', card: '/somewhere/else/card.json', modelCard: '/somewhere/else/MODEL_CARD.md' });
  });

  it('says how to make the weights when a file is missing', () => {
    const empty = mkdtempSync(path.join(tmpdir(), 'dreamgym-no-weights-'));
    expect(() => pretrainedPaths('model', { [PRETRAINED_DIR_VARIABLE]: empty })).toThrow(`no pretrained weights in ${empty} (model.dgx is missing): run \`npm run -s cli -- pretrain --out ${empty}\``);
  });
});

describe('the commands that take `pretrained`', () => {
  let empty: string;
  let before: string | undefined;
  beforeEach(() => {
    before = process.env[PRETRAINED_DIR_VARIABLE];
    empty = mkdtempSync(path.join(tmpdir(), 'dreamgym-no-weights-'));
    process.env[PRETRAINED_DIR_VARIABLE] = empty;
  });
  afterEach(() => {
    if (before === undefined) delete process.env[PRETRAINED_DIR_VARIABLE];
    else process.env[PRETRAINED_DIR_VARIABLE] = before;
  });

  const refusal = async (args: string[]): Promise<{ code: number; stderr: string }> => {
    const io = capture();
    const code = await main(args, io);
    return { code, stderr: io.stderr.join('\n') };
  };

  it.each([
    ['rollout --policy pretrained', ['rollout', '--env', 'shop', '--policy', 'pretrained'], 'policy.dgp'],
    ['train --init pretrained', ['train', '--env', 'shop', '--mode', 'real', '--algo', 'ppo', '--real-budget', '10', '--init', 'pretrained'], 'policy.dgp'],
    ['experience fit --init pretrained', ['experience', 'fit', '--env', 'shop', '--buffer', 'b.jsonl', '--out', path.join(tmpdir(), 'x.dgx'), '--init', 'pretrained'], 'model.dgx'],
    ['experience eval --model pretrained', ['experience', 'eval', '--env', 'shop', '--experience', 'neural', '--model', 'pretrained', '--buffer', 'b.jsonl', '--heldout', '4'], 'model.dgx'],
  ])('%s refuses, naming the folder and the command that fills it', async (_, args, file) => {
    const { code, stderr } = await refusal(args);
    expect(code).toBe(2);
    expect(stderr).toContain(`error: no pretrained weights in ${empty} (${file} is missing): run \`npm run -s cli -- pretrain --out ${empty}\``);
  });
});
