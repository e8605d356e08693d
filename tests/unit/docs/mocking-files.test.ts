/**
 * The unit project shares one module graph between the files of a worker (vitest.config.ts), so a
 * file that replaces a module with vi.mock must run in the isolated `unit-mocking` project: every
 * such file is in tests/mocking-files.ts, and every file listed there still mocks.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MOCKING_FILES } from '../../mocking-files.ts';

const ROOT = path.resolve(import.meta.dirname, '../../..');

function testFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return testFiles(relative);
    return entry.name.endsWith('.test.ts') ? [relative] : [];
  });
}

describe('unit files that mock modules', () => {
  it('run isolated: the list is exactly the files that call vi.mock', () => {
    const mocking = testFiles('tests/unit').filter((file) => /\bvi\.(do)?[mM]ock\(/.test(readFileSync(path.join(ROOT, file), 'utf8')));
    expect([...MOCKING_FILES].sort()).toEqual(mocking.sort());
  });
});
