/**
 * Every relative link in README.md and docs/ leads somewhere: a file or a folder of the repository
 * (the anchor after `#` is not checked). Links inside fenced code blocks are code, not links.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { proseOf, root, userDocs } from './markdown-files.ts';

/** The relative targets of a Markdown text's inline links and images, with their line numbers. */
export function relativeLinks(markdown: string): { line: number; target: string }[] {
  const links: { line: number; target: string }[] = [];
  proseOf(markdown).forEach((text, i) => {
    // Inline code is not a link either.
    const line = text.replace(/`[^`]*`/g, '``');
    for (const match of line.matchAll(/!?\[(?:[^\]]|\][^(])*?\]\(<?([^)\s>]+)>?(?:\s+"[^"]*")?\)/g)) {
      const target = match[1] as string;
      if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#')) continue;
      links.push({ line: i + 1, target });
    }
  });
  return links;
}

describe('links in README.md and docs/', () => {
  it('each lead to a file or folder that exists', () => {
    const broken: string[] = [];
    for (const file of userDocs()) {
      for (const { line, target } of relativeLinks(readFileSync(path.join(root, file), 'utf8'))) {
        const local = decodeURIComponent(target.split('#')[0]?.split('?')[0] ?? '');
        if (local === '') continue;
        if (!existsSync(path.resolve(root, path.dirname(file), local))) broken.push(`${file}:${line}: ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('are read from prose, not from code, and web addresses are left alone', () => {
    const text = ['[a](docs/a.md#x) and ![b](b.png)', '`[c](c.md)`', '```', '[d](d.md)', '```', '[e](https://e.example) [f](#f)'].join('\n');
    expect(relativeLinks(text)).toEqual([
      { line: 1, target: 'docs/a.md#x' },
      { line: 1, target: 'b.png' },
    ]);
  });
});
