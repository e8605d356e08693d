/**
 * Issue 60: a message that quotes what came from outside (a flag, a file's field or line, a prompt)
 * quotes a bounded excerpt of it, control characters escaped, and still names the flag, file or
 * field. Each kind goes through its real entry point: the CLI's `main`, or the reader a file meets.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { parseState } from '../../src/core/state.ts';
import { readPrompt } from '../../src/experience/prompt-reader.ts';
import { systemPrompt, SECTION } from '../../src/experience/prompt.ts';
import { DGP_MAGIC, encodePolicyFile, readPolicyHeader, type PolicyFileMeta } from '../../src/policy/dgp.ts';
import { policyConfigFromHeader } from '../../src/policy/policy-file.ts';
import { decodeSafetensors } from '../../src/policy/safetensors.ts';
import { policyFromSafetensors } from '../../src/policy/policy-safetensors.ts';
import { envOfflineSettings, envSettings } from '../../src/train/env-settings.ts';
import { parseBackend } from '../../src/platform/tf.ts';
import { parseMix } from '../../src/replay/seed.ts';
import { intOption } from '../../src/jobs/node-args.ts';
import { loadStoreFile } from '../../src/replay/file-store.ts';
import { capture } from '../cli-io.ts';

/** A megabyte of hostile text: a NUL, line breaks and a terminal escape near its start. */
const HUGE = `ab\u0000c\nd\r\u001b[2Je${'x'.repeat(1_000_000)}`;
/** Short enough to fit a 1 MB file header twice. */
const LARGE = `ab\u0000c\nd${'y'.repeat(200_000)}`;

const root = mkdtempSync(path.join(tmpdir(), 'dreamgym-bounded-messages-'));

/** The message is short, on one line, free of raw control characters, and names what it must. */
function expectBounded(message: string, ...names: (string | RegExp)[]): void {
  expect(message.length).toBeLessThan(600);
  // eslint-disable-next-line no-control-regex -- no raw control character may reach a terminal
  expect(message).not.toMatch(/[\u0000-\u001f\u007f]/);
  for (const name of names) expect(message).toMatch(name);
}

function thrown(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected a refusal');
}

async function cliError(argv: string[]): Promise<string> {
  const io = capture();
  expect(await main(argv, io)).toBe(2);
  expect(io.stderr.length).toBeGreaterThan(0);
  // The error, without the usage text printed after it (a raw line break in the quote stays in).
  return io.stderr.join('\n').split('\n\nusage:')[0] as string;
}

describe('flag values in CLI messages', () => {
  it('quote a bounded, escaped excerpt of a choice flag, a repeated flag, --mix and a subcommand', async () => {
    expectBounded(await cliError(['buffer', 'seed', '--env', HUGE, '--episodes', '1', '--out', path.join(root, 'a.jsonl')]), '--env', /"ab\\0c\\nd\\r\\u001b\[2Jex+…" \(1,000,012 characters\)/);
    expectBounded(await cliError(['rollout', '--env', 'shop', '--policy', 'oracle', '--seed', HUGE, '--seed', '2']), '--seed is given twice', '"ab\\0c\\nd');
    expectBounded(await cliError(['buffer', 'seed', '--env', 'shop', '--episodes', '1', '--mix', HUGE, '--out', path.join(root, 'b.jsonl')]), '--mix');
    expectBounded(await cliError(['buffer', HUGE]), 'unknown buffer subcommand');
    expectBounded(await cliError(['buffer', 'import', HUGE, '--out', path.join(root, 'in.jsonl')]), 'buffer import must name a .jsonl file');
  });

  it('never show the values of a key flag given twice', async () => {
    const message = await cliError(['train', '--api-key', 'sk-first-secret', '--api-key', 'sk-second-secret']);
    expect(message).toMatch('--api-key is given twice; give it once');
    expect(message).not.toMatch('secret');
  });

  it('bound the values the readers of flags refuse: --mix parts, integers and backends', () => {
    expectBounded(thrown(() => parseMix(`${HUGE}=1`)), '--mix names');
    expectBounded(thrown(() => parseMix(`oracle=${HUGE}`)), '--mix weight for oracle');
    expectBounded(thrown(() => intOption(HUGE, 'episodes', 1)), '--episodes must be an integer');
    expectBounded(thrown(() => parseBackend(HUGE)), 'unknown backend');
  });

  it('take an integer flag as decimal digits only', () => {
    expect(thrown(() => intOption('0x10', 'episodes', 1))).toBe('--episodes must be an integer ≥ 0, got "0x10"');
    expect(thrown(() => intOption('', 'episodes', 1))).toBe('--episodes must be an integer ≥ 0, got ""');
    expect(intOption(' 12 ', 'episodes', 1)).toBe(12);
  });
});

describe('file contents in messages', () => {
  it('a state line is quoted bounded, in parseState and in a prompt that relays it', () => {
    expectBounded(thrown(() => parseState(`page: x\n${HUGE.replace(/[\n\r]/g, ' ')}`)), 'is neither "key: value"', '(line 2)', '\\0');
    const messages = [
      { role: 'system' as const, content: systemPrompt('web') },
      { role: 'user' as const, content: `${SECTION.task}\nbuy mugs\n\n${SECTION.state}\npage: x\n\u0000${'z'.repeat(1_000_000)}\n\n${SECTION.action}\nclick[a]` },
    ];
    expectBounded(thrown(() => readPrompt(messages)), 'is neither', '(line 2)');
  });

  it('a policy header field and weight names are quoted bounded', () => {
    const meta: PolicyFileMeta = {
      env: 'shop', algorithm: 'ppo', backend: 'cpu', architecture: { hidden: [2] }, featurizer: { dims: 2 },
      training: {}, evaluation: null, createdAt: '2025-01-02T03:04:05.000Z',
    };
    const file = encodePolicyFile(meta, [
      { name: 'a', shape: [1], data: new Float32Array([1]) },
      { name: 'b', shape: [1], data: new Float32Array([2]) },
    ]);
    const length = new DataView(file.buffer, file.byteOffset).getUint32(4, true);
    const header = JSON.parse(new TextDecoder().decode(file.subarray(8, 8 + length))) as { weights: { name: string }[] };
    for (const w of header.weights) w.name = LARGE;
    expectBounded(thrown(() => readPolicyHeader(rebuild(header, file.subarray(((8 + length + 3) & ~3))))), 'lists weight', 'twice', '200,006 characters');

    expectBounded(thrown(() => policyConfigFromHeader({ env: 'shop', architecture: { kind: HUGE } as never, featurizer: {} as never })), 'architecture.kind');
  });

  it('a safetensors tensor name, its dtype and a config weight name are quoted bounded', () => {
    const tensors = (name: string, dtype: string) => {
      const json = new TextEncoder().encode(JSON.stringify({ [name]: { dtype, shape: [1], data_offsets: [0, 4] } }));
      const out = new Uint8Array(8 + json.length + 4);
      new DataView(out.buffer).setBigUint64(0, BigInt(json.length), true);
      out.set(json, 8);
      return out;
    };
    expectBounded(thrown(() => decodeSafetensors(tensors(HUGE, 'F32x'))), 'tensor "ab\\0c', 'only F32 tensors');
    expectBounded(thrown(() => decodeSafetensors(tensors('t', HUGE))), 'tensor t is', 'only F32 tensors');
    const config = JSON.stringify({ format: 'dreamgym-policy-safetensors', weights: [{ name: HUGE }] });
    expectBounded(thrown(() => policyFromSafetensors(tensors('t', 'F32'), config)), 'has no tensor', 'config.json lists');
  });

  it('an environment\'s training setting is quoted bounded, its name and the environment named', () => {
    expectBounded(thrown(() => envSettings({ name: 'tiny', training: { all: { ppo: { [HUGE]: 1 } as never } } }, 'ppo')), "tiny's training settings give ppo", 'not one of its');
    expectBounded(thrown(() => envOfflineSettings({ name: 'tiny', training: { offline: { bc: { beta: HUGE } as never } } }, 'bc')), 'give bc "beta: "ab\\0c', 'number settings');
  });

  it('a bad store line is quoted bounded when a store is loaded and when a file is imported', async () => {
    const store = path.join(root, 'store.jsonl');
    writeFileSync(store, `${JSON.stringify({ [HUGE]: 1 })}\n`);
    await expect(loadStoreFile(store)).rejects.toThrow(/line 1/);
    expectBounded(await loadStoreFile(store).then(() => '', (error: Error) => error.message), 'store.jsonl, line 1', 'the file was not loaded');

    const input = path.join(root, 'bad.jsonl');
    writeFileSync(input, `${JSON.stringify({ state: 'a', action: 'b', next: HUGE, reward: HUGE })}\n`);
    const io = capture();
    expect(await main(['buffer', 'import', input, '--out', path.join(root, 'into.jsonl')], io)).not.toBe(0);
    expect(io.stderr.length).toBeGreaterThan(0);
    for (const line of io.stderr) expectBounded(line);
    expect(io.stderr.join('\n')).toMatch('bad.jsonl');
  });
});

/** The same file with another header (and the same weight bytes), in the .dgp layout. */
function rebuild(header: unknown, weightBytes: Uint8Array): Uint8Array {
  const json = new TextEncoder().encode(JSON.stringify(header));
  const start = (8 + json.length + 3) & ~3;
  const out = new Uint8Array(start + weightBytes.length);
  out.set(new TextEncoder().encode(DGP_MAGIC), 0);
  new DataView(out.buffer).setUint32(4, json.length, true);
  out.set(json, 8);
  out.set(weightBytes, start);
  return out;
}
