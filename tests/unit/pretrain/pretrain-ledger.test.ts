/**
 * pretrain.json: a finished stage is skipped only while its output, its inputs and its settings
 * are the ones recorded; an output gone or changed runs it again; other settings are refused.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readLedger, sha256File, stageState, writeLedger, type Ledger } from '../../../src/jobs/pretrain-ledger.ts';

async function finishedSeed(): Promise<{ dir: string; ledger: Ledger }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'dreamgym-ledger-'));
  writeFileSync(path.join(dir, 'buffer.jsonl'), 'seeded\n');
  const output = await sha256File(path.join(dir, 'buffer.jsonl'));
  const ledger: Ledger = { format: 'dreamgym-pretrain', version: 1, stages: {} };
  ledger.stages.seed = { settings: { seed: 1, seedEpisodes: 24 }, inputs: {}, output: { file: 'buffer.jsonl', ...output! }, wallSeconds: 3, finishedAt: 'then', summary: {} };
  await writeLedger(dir, ledger);
  return { dir, ledger: await readLedger(dir) };
}

describe('the pretraining record', () => {
  it('skips a finished stage asked for again as it was', async () => {
    const { dir, ledger } = await finishedSeed();
    expect(await stageState(dir, ledger, 'seed', { seed: 1, seedEpisodes: 24 }, {})).toBe('done');
    expect(await stageState(dir, ledger, 'fit', { seed: 1 }, {})).toBe('redo');
  });

  it('runs a stage again whose output is gone or changed, or whose inputs changed', async () => {
    const { dir, ledger } = await finishedSeed();
    expect(await stageState(dir, ledger, 'seed', { seed: 1, seedEpisodes: 24 }, { 'x.jsonl': 'another digest' })).toBe('redo');
    writeFileSync(path.join(dir, 'buffer.jsonl'), 'changed\n');
    expect(await stageState(dir, ledger, 'seed', { seed: 1, seedEpisodes: 24 }, {})).toBe('redo');
  });

  it('refuses a finished stage asked for with other settings, naming them and what to do', async () => {
    const { dir, ledger } = await finishedSeed();
    await expect(stageState(dir, ledger, 'seed', { seed: 1, seedEpisodes: 48 }, {})).rejects.toThrow(
      `--out ${dir} holds a finished seed stage with other settings (seedEpisodes: 24 there, 48 now); name another --out folder, or remove ${path.join(dir, 'buffer.jsonl')} to run that stage`,
    );
  });

  it('refuses a folder whose pretrain.json is not a pretraining record', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'dreamgym-ledger-'));
    writeFileSync(path.join(dir, 'pretrain.json'), '{"name": "a package"}');
    await expect(readLedger(dir)).rejects.toThrow(/pretrain\.json there is not a pretraining record/);
  });
});
