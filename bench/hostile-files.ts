/**
 * Hostile files for every kind of file the CLI reads (issue 60): a 2 GB sparse file, /dev/zero and
 * a FIFO under the name a command expects, and the commands that read each kind. Shared by the
 * hostile-files test (tests/unit/hostile-files.test.ts) and `npm run bench -- robustness`, so the
 * bench counts over the same cases the test asserts.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The names commands expect, one per kind of file read. */
export const HOSTILE_FILE_NAMES = ['policy.dgp', 'model.dgx', 'run.dgc', 'site.json', 'model.safetensors', 'buffer.jsonl'] as const;
export type HostileFileName = (typeof HOSTILE_FILE_NAMES)[number];

export const HOSTILE_KINDS = ['sparse', 'zero', 'fifo'] as const;
export type HostileKind = (typeof HOSTILE_KINDS)[number];

const KIND_WORDS: Record<HostileKind, string> = { sparse: 'a 2 GB sparse file', zero: '/dev/zero', fifo: 'a FIFO' };

/** Makes, under `dir`, each hostile kind of each named file (dir/sparse/policy.dgp, dir/zero/…, dir/fifo/…). */
export function makeHostileFiles(dir: string): void {
  for (const kind of HOSTILE_KINDS) mkdirSync(path.join(dir, kind), { recursive: true });
  for (const name of HOSTILE_FILE_NAMES) {
    const sparse = path.join(dir, 'sparse', name);
    writeFileSync(sparse, '');
    truncateSync(sparse, 2 * 1024 ** 3);
    symlinkSync('/dev/zero', path.join(dir, 'zero', name));
    execFileSync('mkfifo', [path.join(dir, 'fifo', name)]);
  }
  // The safetensors folder needs its config beside the weights.
  for (const kind of HOSTILE_KINDS) writeFileSync(path.join(dir, kind, 'config.json'), '{}');
}

/** The three hostile files of one name, with what a refusal of each says. */
export function hostileFiles(dir: string, name: HostileFileName): { kind: string; path: string; said: RegExp }[] {
  const said: Record<HostileKind, RegExp> = { sparse: /is 2,048 MB/, zero: /is a device, not a file/, fifo: /is a named pipe \(FIFO\), not a file/ };
  return HOSTILE_KINDS.map((kind) => ({ kind: KIND_WORDS[kind], path: path.join(dir, kind, name), said: said[kind] }));
}

/** A command that reads one kind of file, as argv for the file at `file` (outputs go under `dir`). */
export interface FileReadingCommand {
  what: string;
  name: HostileFileName;
  args(file: string, dir: string): string[];
}

const variant = (file: string): string => path.basename(path.dirname(file));

export const FILE_READING_COMMANDS: FileReadingCommand[] = [
  { what: 'rollout --policy', name: 'policy.dgp', args: (file) => ['rollout', '--env', 'shop', '--policy', file, '--episodes', '1'] },
  { what: 'train --init', name: 'policy.dgp', args: (file) => ['train', '--env', 'shop', '--mode', 'real', '--algo', 'grpo', '--real-budget', '10', '--init', file] },
  { what: 'policy export', name: 'policy.dgp', args: (file, dir) => ['policy', 'export', file, '--format', 'safetensors', '--out', path.join(dir, `export-${variant(file)}`)] },
  { what: 'policy import', name: 'model.safetensors', args: (file, dir) => ['policy', 'import', path.dirname(file), '--out', path.join(dir, `import-${variant(file)}.dgp`)] },
  { what: 'experience eval --model', name: 'model.dgx', args: (file) => ['experience', 'eval', '--env', 'shop', '--experience', 'neural', '--model', file, '--buffer', file, '--heldout', '10'] },
  { what: 'train --resume --checkpoint', name: 'run.dgc', args: (file) => ['train', '--env', 'shop', '--mode', 'real', '--algo', 'grpo', '--real-budget', '10', '--checkpoint', file, '--resume'] },
  { what: '--site DIR (its site.json)', name: 'site.json', args: (file) => ['rollout', '--site', path.dirname(file), '--policy', 'random', '--episodes', '1'] },
  { what: 'buffer import', name: 'buffer.jsonl', args: (file, dir) => ['buffer', 'import', file, '--out', path.join(dir, `imported-${variant(file)}.jsonl`)] },
];

/** Words a refusal of a hostile file uses: its size, its kind, or why its bytes are not the format. */
export const HOSTILE_REFUSAL = /2,048 MB|not a file|is a device|named pipe|not valid|binary|NUL|cannot be read|does not look like/i;
