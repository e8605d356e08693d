/**
 * A run's curve as CSV and JSONL: one row per iteration, nested metrics as dotted columns, fields
 * quoted where they must be; and `train --history FILE.csv|.jsonl` writes them.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CommandIO } from '../../../src/cli/io.ts';
import { main } from '../../../src/cli/main.ts';
import { historyCsv, historyJsonl, historyTable } from '../../../src/train/metrics-export.ts';
import type { IterationMetrics } from '../../../src/train/metrics.ts';

const work = mkdtempSync(path.join(tmpdir(), 'dreamgym-metrics-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const point = (iteration: number, extra: Partial<IterationMetrics> = {}): IterationMetrics => ({
  iteration, phase: 'real', realTransitions: iteration * 100, syntheticTransitions: 0, episodes: 8, samplesPerIteration: 100,
  successRate: 0.25 * iteration, meanScore: 25 * iteration, meanReturn: 0.25, entropy: 1.5, approxKl: 0.001, clipFraction: 0.1,
  policyLoss: -0.01, valueLoss: 0.2, referenceKl: 0, gradNorm: 0.5, learningRate: 0.001, samplesPerSecond: 300, wallSeconds: iteration, ...extra,
});

describe('a run\'s curve as files', () => {
  const history = [point(1), point(2, { eval: { split: 'test', episodes: 20, successRate: 0.4, meanScore: 40, meanSteps: 3.5, actionsDigest: 'ab,"c"' } })];

  it('flattens nested metrics to dotted columns, every column once, in the order first met', () => {
    const { columns, rows } = historyTable(history);
    expect(columns.slice(0, 3)).toEqual(['iteration', 'phase', 'realTransitions']);
    expect(columns).toContain('eval.successRate');
    expect(columns.filter((c) => c === 'iteration')).toHaveLength(1);
    expect(rows[1]?.['eval.successRate']).toBe(0.4);
    expect(rows[0]?.['eval.successRate']).toBeUndefined();
  });

  it('writes CSV with a header, empty cells where an iteration lacks a column, and quoted fields', () => {
    const lines = historyCsv(history).trimEnd().split('\r\n');
    expect(lines).toHaveLength(3);
    const header = lines[0]?.split(',') ?? [];
    const at = header.indexOf('eval.successRate');
    expect(lines[1]?.split(',')[at]).toBe('');
    expect(lines[2]).toContain('"ab,""c"""');
  });

  it('writes JSONL, one iteration as recorded per line', () => {
    const lines = historyJsonl(history).trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(lines).toEqual(history);
  });

  it('train --history FILE.csv and FILE.jsonl write the curve', async () => {
    const io: CommandIO = { out: () => {}, result: () => {}, progress: () => {} };
    const csv = path.join(work, 'curve.csv');
    const jsonl = path.join(work, 'curve.jsonl');
    for (const file of [csv, jsonl]) {
      expect(await main(['train', '--env', 'shop', '--mode', 'real', '--algo', 'grpo', '--real-budget', '300', '--iterations', '1', '--backend', 'cpu', '--final-eval-episodes', '5', '--history', file], io)).toBe(0);
    }
    const rows = readFileSync(csv, 'utf8').trimEnd().split('\r\n');
    expect(rows[0]?.startsWith('iteration,phase,realTransitions')).toBe(true);
    expect(rows.length).toBeGreaterThan(1);
    const lines = readFileSync(jsonl, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as IterationMetrics);
    expect(lines.length).toBe(rows.length - 1);
    expect(lines[0]?.iteration).toBe(1);
  });
});
