/**
 * Rewriting a file whole (stores, policies, histories) keeps what the person set on it (issue 60):
 * its permissions (a private store of demonstrations stays private) and the link they put in its
 * place (the file the link names is rewritten, the link stays a link).
 */
import { chmodSync, lstatSync, mkdtempSync, readFileSync, readlinkSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { canWriteBeside, writeFileWhole } from '../../../src/platform/files.ts';

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(path.join(tmpdir(), 'dreamgym-files-'));
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

const modeOf = (file: string) => statSync(file).mode & 0o777;

describe('writing a file whole', () => {
  it('keeps the permissions of the file it replaces', async () => {
    const file = path.join(folder, 'private.jsonl');
    writeFileSync(file, 'old\n');
    chmodSync(file, 0o600);
    await writeFileWhole(file, 'new\n');
    expect(readFileSync(file, 'utf8')).toBe('new\n');
    expect(modeOf(file)).toBe(0o600);
    chmodSync(file, 0o640);
    await writeFileWhole(file, 'newer\n');
    expect(modeOf(file)).toBe(0o640);
  });

  it('rewrites the file a link names and leaves the link a link', async () => {
    const real = path.join(folder, 'real-store.jsonl');
    const link = path.join(folder, 'store.jsonl');
    writeFileSync(real, 'old\n');
    chmodSync(real, 0o600);
    symlinkSync(real, link);
    await writeFileWhole(link, 'new\n');
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readlinkSync(link)).toBe(real);
    expect(readFileSync(real, 'utf8')).toBe('new\n');
    expect(modeOf(real)).toBe(0o600);
    expect(await canWriteBeside(link)).toBeNull();
  });

  it('makes a new file with the usual permissions', async () => {
    const file = path.join(folder, 'fresh.json');
    await writeFileWhole(file, '{}');
    expect(readFileSync(file, 'utf8')).toBe('{}');
    expect(modeOf(file) & 0o600).toBe(0o600);
  });
});
