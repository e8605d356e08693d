import { closeSync, existsSync, openSync, readdirSync, readFileSync, readSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// results/ is sorted by question: one index (results/README.md), a README in every top folder,
// folders named after what they hold, and the paper experiment's quick and full reports apart.
const RESULTS = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../results');

const topFolders = (): string[] =>
  readdirSync(RESULTS, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();

function walk(dir: string): { dirs: string[]; files: string[] } {
  const dirs: string[] = [];
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      dirs.push(full);
      const inner = walk(full);
      dirs.push(...inner.dirs);
      files.push(...inner.files);
    } else files.push(full);
  }
  return { dirs, files };
}

const relative = (file: string): string => path.relative(RESULTS, file);

/** The first part of results/README.md: from `## Index` to the next second-level heading. */
function indexSection(): string {
  const text = readFileSync(path.join(RESULTS, 'README.md'), 'utf8');
  const start = text.indexOf('\n## Index');
  expect(start, 'results/README.md starts with an `## Index` section').toBeGreaterThanOrEqual(0);
  const end = text.indexOf('\n## ', start + 1);
  return text.slice(start, end === -1 ? undefined : end);
}

/** A paper report's kind and preset, from its first fields (the runner writes them first; the whole file is megabytes). */
function reportHead(file: string): { kind?: string; preset?: string } {
  const fd = openSync(file, 'r');
  const bytes = Buffer.alloc(4096);
  const read = readSync(fd, bytes, 0, bytes.length, 0);
  closeSync(fd);
  const head = bytes.subarray(0, read).toString('utf8');
  const field = (name: string): string | undefined => new RegExp(`"${name}":"([^"]*)"`).exec(head)?.[1];
  const kind = field('kind');
  const preset = field('preset');
  return kind !== undefined && preset !== undefined ? { kind, preset } : (JSON.parse(readFileSync(file, 'utf8')) as { kind?: string; preset?: string });
}

const linkTargets = (markdown: string): string[] =>
  [...markdown.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1] as string).filter((l) => !/^(https?:|mailto:|#)/.test(l));

describe('results/ layout', () => {
  it('has a README in every top folder, and nothing but the index beside them', () => {
    const folders = topFolders();
    expect(folders.length).toBeGreaterThan(0);
    for (const folder of folders) {
      const readme = path.join(RESULTS, folder, 'README.md');
      expect(existsSync(readme), `results/${folder}/README.md`).toBe(true);
      expect(readFileSync(readme, 'utf8').trim().length, `results/${folder}/README.md is not empty`).toBeGreaterThan(200);
    }
    const files = readdirSync(RESULTS, { withFileTypes: true }).filter((e) => !e.isDirectory()).map((e) => e.name);
    expect(files).toEqual(['README.md']);
  });

  it("results/README.md opens with an index whose links are existing folders, one row for each top folder", () => {
    const index = indexSection();
    expect(index).toMatch(/\| question \| folder \| command \| headline figure \|/);
    const targets = linkTargets(index);
    expect(targets.length).toBeGreaterThan(0);
    for (const target of targets) {
      const full = path.join(RESULTS, target.split('#')[0] as string);
      expect(existsSync(full) && statSync(full).isDirectory(), `index link ${target} is a folder of results/`).toBe(true);
    }
    const linked = new Set(targets.map((t) => t.split('/')[0]));
    expect(topFolders().filter((f) => !linked.has(f))).toEqual([]);
  });

  it('names no folder after a bare commit hash', () => {
    const hashNamed = walk(RESULTS).dirs.map(relative).filter((d) => {
      const name = path.basename(d);
      return /^[0-9a-f]{7,40}$/.test(name) && /\d/.test(name);
    });
    expect(hashNamed).toEqual([]);
  });

  it("keeps the paper experiment's quick and full reports apart: a report's folder names its preset where the names clash", () => {
    const reports = walk(RESULTS)
      .files.filter((f) => f.endsWith('-paper.json'))
      .map((file) => ({ file, report: reportHead(file) }))
      .filter((r) => r.report.kind === 'dreamgym-paper-experiment');
    expect(reports.length).toBeGreaterThan(0);
    // The standard regime's reports live in results/paper/<their preset>/.
    for (const { file, report } of reports) {
      const parts = relative(file).split(path.sep);
      if (parts[0] === 'paper') expect(parts[1], `${relative(file)} is a ${report.preset} report`).toBe(report.preset);
    }
    // Two reports of one name and different presets: each sits under a folder named after its own preset.
    for (const a of reports) {
      for (const b of reports) {
        if (a === b || path.basename(a.file) !== path.basename(b.file) || a.report.preset === b.report.preset) continue;
        expect(relative(a.file).split(path.sep), `${relative(a.file)} (${a.report.preset}) beside ${relative(b.file)} (${b.report.preset})`).toContain(a.report.preset);
      }
    }
  });

  it("every README's relative links under results/ resolve", () => {
    const broken: string[] = [];
    for (const file of walk(RESULTS).files.filter((f) => f.endsWith('.md'))) {
      for (const target of linkTargets(readFileSync(file, 'utf8'))) {
        if (!existsSync(path.join(path.dirname(file), target.split('#')[0] as string))) broken.push(`${relative(file)} → ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });
});
