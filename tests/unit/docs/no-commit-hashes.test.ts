/**
 * Commit hashes stay out of user-facing text (README.md, docs/): a reader cannot use `820d66d`, and
 * a sentence can say what changed instead ("before the page relations"). A results file may record
 * the commit it ran at, so a link may lead to a file named after one (the link's target is not
 * text a reader reads; its words are). The lab notebook that names commits lives in results/notebook/.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { root, userDocs } from './markdown-files.ts';

/** Every commit the repository knows, as full hashes; null where there is no history (an export without .git). */
function commits(): string[] | null {
  try {
    return execFileSync('git', ['rev-list', '--all'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).split('\n').filter((h) => h.length === 40);
  } catch {
    return null;
  }
}

/** The tokens of `text` that are a commit's hash or its abbreviation (7 to 40 hex digits), with their line numbers. */
export function commitHashesIn(text: string, known: readonly string[]): { line: number; hash: string }[] {
  const found: { line: number; hash: string }[] = [];
  text.split('\n').forEach((text, i) => {
    // A link's target is a path, not words: `[the bench's JSON](results/perf/bench-neural-a84acef.json)`.
    const line = text.replace(/\]\([^)]*\)/g, ']()');
    for (const match of line.matchAll(/(?<![0-9a-z])[0-9a-f]{7,40}(?![0-9a-z])/gi)) {
      const token = match[0].toLowerCase();
      if (known.some((hash) => hash.startsWith(token))) found.push({ line: i + 1, hash: match[0] });
    }
  });
  return found;
}

const known = commits();

describe('user-facing docs', () => {
  it.skipIf(known === null)('name no commit', () => {
    expect((known as string[]).length).toBeGreaterThan(0);
    const found = userDocs()
      .flatMap((file) => commitHashesIn(readFileSync(path.join(root, file), 'utf8'), known as string[]).map(({ line, hash }) => `${file}:${line}: ${hash}`));
    expect(found).toEqual([]);
  });

  it('finds a commit named inline, and leaves other hex alone', () => {
    const hash = 'a84acef0123456789abcdef0123456789abcdef0';
    expect(commitHashesIn('measured at a84acef, digest 96b745ad, 1000000 steps', [hash])).toEqual([{ line: 1, hash: 'a84acef' }]);
    expect(commitHashesIn('the commit a84acef0123 and A84ACEF', [hash]).map((f) => f.hash)).toEqual(['a84acef0123', 'A84ACEF']);
    expect(commitHashesIn('a84acefz and xa84acef and a84ace', [hash])).toEqual([]);
    expect(commitHashesIn('[the JSON](results/bench-a84acef.json), [a84acef](x.json)', [hash]).map((f) => f.hash)).toEqual(['a84acef']);
  });
});
