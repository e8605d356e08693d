/** The experiments read their run files through a schema: a damaged one is named with its field. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRunFile, readTrainResult, rolloutEvalSchema, RunFileError } from '../../../experiments/run-file.ts';


const dir = mkdtempSync(path.join(tmpdir(), 'dg-run-files-'));
const write = (name: string, content: string) => {
  const file = path.join(dir, name);
  writeFileSync(file, content);
  return file;
};
const run = {
  env: 'home', mode: 'real', algo: 'grpo', seed: 1, realTransitions: 10, syntheticTransitions: 0, wallSeconds: 1.5, config: {}, stopped: false,
  eval: { split: 'valid-unseen', episodes: 5, successRate: 0.4, meanScore: 40, actionsDigest: 'ab' },
  history: [{ iteration: 1, phase: 'real', realTransitions: 10, syntheticTransitions: 0, successRate: 0.5, meanScore: 50, wallSeconds: 1, samplesPerSecond: 9 }],
};

describe('run files', () => {
  it('reads a training history, keeping the fields it does not check', async () => {
    const result = await readTrainResult(write('ok.json', JSON.stringify(run)));
    expect(result.history[0]).toMatchObject({ iteration: 1, samplesPerSecond: 9 });
  });

  it.each([
    ['truncated', JSON.stringify(run).slice(0, 40), /ok-truncated\.json: not a readable JSON training history/],
    ['history not a list', JSON.stringify({ ...run, history: 5 }), /history: Invalid type: Expected Array but received 5/],
    ['a success rate of 3', JSON.stringify({ ...run, history: [{ ...run.history[0], successRate: 3 }] }), /history\.0\.successRate: Invalid value/],
    ['an unknown mode', JSON.stringify({ ...run, mode: 'sleep' }), /mode: Invalid type/],
  ])('refuses a history that is %s, naming the file and field', async (_, content, message) => {
    const file = write(`ok-${_.split(' ')[0]}.json`, content);
    await expect(readTrainResult(file)).rejects.toThrow(RunFileError);
    await expect(readTrainResult(file)).rejects.toThrow(message);
    await expect(readRunFile(write('eval.json', '{"split":"test"}'), rolloutEvalSchema, 'rollout result')).rejects.toThrow(/eval\.json: not a rollout result: episodes: Invalid key/);
  });

  it('an experiment given a damaged file says so in one line and exits 1', async () => {
    const file = write('home-damaged.json', JSON.stringify({ ...run, history: 'x' }));
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'experiments/run.ts', 'episode-steps', file], { cwd: path.resolve(import.meta.dirname, '../../..'), encoding: 'utf8' });
    expect(result.status).toBe(1);
    expect(result.stderr.trim()).toMatch(/^error: .*home-damaged\.json: not a training history \(train --history\): history: Invalid type/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('a reader that stops early (`experiment … | true`) ends it quietly with 0, as the CLI does', () => {
    const file = write('home-ok.json', JSON.stringify(run));
    // `true` closes the pipe before the experiment writes: its write fails with EPIPE.
    const result = spawnSync('bash', ['-c', `"${process.execPath}" --import tsx experiments/run.ts episode-steps "${file}" | true; exit \${PIPESTATUS[0]}`], { cwd: path.resolve(import.meta.dirname, '../../..'), encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  it.each([
    [['paper', '--help'], /^paper: Unknown option '--help'\nusage: npm run experiment -- paper --env/],
    [['paper', '--env'], /^paper: Option '--env <value>' argument missing\nusage:/],
  ])('an option an experiment does not take gets its message and the usage, exit 2: %j', (args, message) => {
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'experiments/run.ts', ...args], { cwd: path.resolve(import.meta.dirname, '../../..'), encoding: 'utf8' });
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});
