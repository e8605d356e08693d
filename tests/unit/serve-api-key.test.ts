/**
 * The room server's own key (issue 60): taken from `--api-key`, `--api-key-file FILE` or
 * DREAMGYM_ROOM_KEY (the flags first), so that it need not be on the command line where `ps` shows
 * it; a key that cannot be sent, or is too short, is refused by where it came from and never shown.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { serveCommand } from '../../src/cli/commands/serve.ts';
import { main } from '../../src/cli/main.ts';
import { capture } from '../cli-io.ts';

const KEY = 'room-Zq7xK-7f3e';
const dir = mkdtempSync(path.join(tmpdir(), 'dreamgym-serve-key-'));
const BUFFER = path.join(dir, 'shop.jsonl');
const SERVE = ['serve', '--experience', 'knn', '--buffer', BUFFER, '--port', '0'];

beforeAll(async () => {
  expect(await main(['buffer', 'seed', '--env', 'shop', '--episodes', '2', '--seed', '1', '--out', BUFFER], capture())).toBe(0);
}, 60_000);
afterEach(() => vi.unstubAllEnvs());

const keyFile = (name: string, text: string): string => {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return file;
};

/** Serves with `flags` until the callback is done; the callback gets the server's address and what was printed. */
async function serving(flags: string[], use: (url: string, io: ReturnType<typeof capture>) => Promise<void>): Promise<void> {
  const io = capture();
  let stop = (): void => undefined;
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  const running = serveCommand(io, [...SERVE.slice(1), ...flags, '--json'], stopped);
  try {
    await expect.poll(() => io.stdout.length, { timeout: 30_000 }).toBeGreaterThan(0);
    await use((JSON.parse(io.stdout[0] as string) as { url: string }).url, io);
  } finally {
    stop();
    await running;
  }
}

const statusWith = async (url: string, key?: string): Promise<number> => (await fetch(`${url}/v1/models`, key ? { headers: { Authorization: `Bearer ${key}` } } : {})).status;

describe('serve: the room key', () => {
  it('comes from --api-key-file, its trailing line break dropped', async () => {
    await serving(['--api-key-file', keyFile('room.key', `${KEY}\r\n`)], async (url, io) => {
      expect(await statusWith(url)).toBe(401);
      expect(await statusWith(url, KEY)).toBe(200);
      expect(io.stderr.join('\n')).not.toContain('Zq7');
    });
  }, 60_000);

  it('comes from DREAMGYM_ROOM_KEY when no flag gives it; a flag wins over it', async () => {
    vi.stubEnv('DREAMGYM_ROOM_KEY', KEY);
    await serving([], async (url) => {
      expect(await statusWith(url, KEY)).toBe(200);
    });
    await serving(['--api-key', 'room-from-the-flag'], async (url) => {
      expect(await statusWith(url, KEY)).toBe(401);
      expect(await statusWith(url, 'room-from-the-flag')).toBe(200);
    });
  }, 60_000);

  it('is in the join link, on purpose, with a line that says so', async () => {
    await serving(['--api-key-file', keyFile('link.key', KEY), '--app-url', 'https://dreamgym.example/'], async (_url, io) => {
      const link = (JSON.parse(io.stdout[0] as string) as { link: string }).link;
      expect(new URLSearchParams(new URL(link).hash.replace(/^#experience\?/, '')).get('key')).toBe(KEY);
      expect(io.stderr.join('\n')).toMatch(/the link below carries the room's key: share it with the room only\nparticipants join by opening: https:\/\/dreamgym\.example\//);
    });
  }, 60_000);

  it.each([
    ['a line break', () => ['--api-key', `${KEY}\nx`], /^error: --api-key holds a line break \(character 16 of 17\)/],
    ['too few characters', () => ['--api-key', 'Zq7xKa'], /^error: --api-key must be at least 8 characters \(it is 6 characters\)$/m],
    ['a file holding a NUL', () => ['--api-key-file', keyFile('nul.key', `${KEY}\u0000`)], /^error: --api-key-file .*nul\.key: the key holds a control character/],
    ['an empty file', () => ['--api-key-file', keyFile('empty.key', '')], /--api-key-file .*empty\.key is empty/],
    ['both flags', () => ['--api-key', KEY, '--api-key-file', keyFile('both.key', KEY)], /--api-key and --api-key-file both give the key; give one/],
    ['another host and no key anywhere', () => ['--host', '0.0.0.0'], /--host 0\.0\.0\.0 is reachable from other machines: set --api-key KEY, --api-key-file FILE or \$DREAMGYM_ROOM_KEY/],
  ])('is refused, by where it came from, for %s, before a server starts', async (_label, extra, message) => {
    const io = capture();
    expect(await main([...SERVE, ...extra()], io)).toBe(2);
    const said = io.stderr.join('\n');
    expect(said).toMatch(message);
    expect(said).not.toContain('Zq7');
    expect(said).not.toMatch(/serving/);
  });

  it('in the environment, is refused by the variable\'s name when it cannot be sent', async () => {
    vi.stubEnv('DREAMGYM_ROOM_KEY', `${KEY}\n`);
    const io = capture();
    expect(await main(SERVE, io)).toBe(2);
    expect(io.stderr.join('\n')).toMatch(/the environment variable DREAMGYM_ROOM_KEY holds a line break/);
    expect(io.stderr.join('\n')).not.toContain('Zq7');
  });

  it('the usage says where the key may come from, and in what order', async () => {
    const io = capture();
    expect(await main(['serve'], io)).toBe(2);
    expect(io.stderr.join('\n')).toMatch(/\[--api-key KEY \| --api-key-file FILE \(clients send Authorization: Bearer KEY; without either flag, \$DREAMGYM_ROOM_KEY if set\)\]/);
  });
});
