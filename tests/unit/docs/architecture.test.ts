/**
 * docs/architecture.md's floor table against the layering the lint enforces: the same floors, with
 * the same folders in the same order, as the FLOORS list of .dependency-cruiser.cjs, and every
 * folder under src/ on a floor. So the map a newcomer reads cannot drift from the rules.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { root } from './markdown-files.ts';

/** The FLOORS list of .dependency-cruiser.cjs, as the lint reads it (the file exports only the rules made from it). */
function lintFloors(): string[][] {
  const source = readFileSync(path.join(root, '.dependency-cruiser.cjs'), 'utf8');
  const sandbox = { module: { exports: {} as Record<string, unknown> }, require: () => ({}) };
  vm.runInNewContext(`${source}\n;module.exports.__floors = FLOORS;`, sandbox);
  return JSON.parse(JSON.stringify(sandbox.module.exports.__floors)) as string[][];
}

/** The floor table of docs/architecture.md: each row's floor number and its folders, in order. */
export function docFloors(markdown: string): { floor: number; folders: string[] }[] {
  const start = markdown.indexOf('## 1. The floors');
  const end = markdown.indexOf('\n## ', start + 1);
  const rows: { floor: number; folders: string[] }[] = [];
  for (const line of markdown.slice(start, end).split('\n')) {
    const row = /^\| (\d+) \| ([^|]+) \|/.exec(line);
    if (row) rows.push({ floor: Number(row[1]), folders: [...(row[2] as string).matchAll(/`([a-z-]+)`/g)].map((m) => m[1] as string) });
  }
  return rows;
}

const markdown = readFileSync(path.join(root, 'docs/architecture.md'), 'utf8');

describe('docs/architecture.md', () => {
  it('draws the floors the lint enforces: the same folders, floor by floor, in order', () => {
    const floors = lintFloors();
    expect(floors.length).toBeGreaterThan(5);
    const rows = docFloors(markdown);
    expect(rows.map((r) => r.floor)).toEqual(floors.map((_, i) => i + 1));
    expect(rows.map((r) => r.folders)).toEqual(floors);
  });

  it('puts every folder under src/ on a floor', () => {
    const onFloors = new Set(docFloors(markdown).flatMap((r) => r.folders));
    const folders = readdirSync(path.join(root, 'src'), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
    expect(folders.filter((f) => !onFloors.has(f))).toEqual([]);
  });

  it('reads a floor table row by row', () => {
    const table = ['## 1. The floors', '| floor | folders |', '|---|---|', '| 1 | [`core`](../src/core) | x |', '| 2 | [`a`](a) · [`b-c`](b) | `not-this` |', '', '## 2. Next', '| 3 | [`no`](no) |'].join('\n');
    expect(docFloors(table)).toEqual([
      { floor: 1, folders: ['core'] },
      { floor: 2, folders: ['a', 'b-c'] },
    ]);
  });
});
