/**
 * Property-based fuzzing (fast-check, seeded and bounded) of every parser that reads what comes from
 * outside: JSONL lines and whole import files, a store's first line and whole store files, action
 * strings in both environments, an experience model's reply, chat prompts, and the `.dgp` / `.dgx`
 * containers. Random and shrunk inputs must end in a result or in one of the project's typed errors
 * (a DreamGymError with a message), never in a TypeError, and never change data already committed.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { DreamGymError } from '../../../src/core/errors.ts';
import { matchAdmissible, parseWebAction } from '../../../src/core/actions.ts';
import { envSpec } from '../../../src/envs/registry.ts';
import { parseOutput } from '../../../src/experience/output.ts';
import { readPrompt } from '../../../src/experience/prompt-reader.ts';
import { inspectNeuralModel } from '../../../src/experience/neural/model-io.ts';
import { importPolicy, inspectPolicyFile } from '../../../src/policy/policy-file.ts';
import { useBackend } from '../../../src/platform/tf.ts';
import { loadStoreFile } from '../../../src/replay/file-store.ts';
import { importJsonl, parseLine, transitionLine } from '../../../src/replay/jsonl.ts';
import { MemoryReplayStore } from '../../../src/replay/memory-store.ts';
import { parseStoreMeta } from '../../../src/replay/store-meta.ts';
import { transitionSchema } from '../../../src/replay/schema.ts';
import { actionText, chatMessages, damaged, GOOD_TRANSITION, jsonlText, metaLine, modelReply, mutatedTransition, texty, validWeightFiles } from '../../../bench/hostile-inputs.ts';
import * as v from 'valibot';

/** Seeded, so a failure reproduces; bounded, so `npm test` stays fast. */
const RUNS = { seed: 20261125, numRuns: 150 };

/** Ends in a value or a typed, worded error: anything else fails the property. */
async function typedOutcome(work: () => unknown): Promise<void> {
  try {
    await work();
  } catch (error) {
    if (!(error instanceof DreamGymError) || error.message.length === 0) throw error;
  }
}

const good = GOOD_TRANSITION;

describe('fuzz: JSONL', () => {
  it('a line parses to a schema-valid transition, a problem in words, or nothing', () => {
    fc.assert(
      fc.property(fc.oneof(texty, mutatedTransition), (text) => {
        const parsed = parseLine(text);
        if (parsed === null) return;
        if (parsed.ok) expect(v.is(transitionSchema, parsed.transition)).toBe(true);
        else expect(parsed.problem.length).toBeGreaterThan(0);
      }),
      RUNS,
    );
  });

  /** The lines of a text as a person counts them: a last line needs no line break, and a byte-order mark is no text. */
  const linesIn = (text: string): number => {
    const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
    return body.split('\n').length - (body.endsWith('\n') || body === '' ? 1 : 0);
  };

  it('an import counts every line once and never changes what the store already holds', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.oneof(jsonlText, mutatedTransition, fc.constant(transitionLine(good).trim())), { maxLength: 20 }), fc.integer({ min: 1, max: 8 }), async (lines, chunkSize) => {
        const store = new MemoryReplayStore();
        await store.add([good, { ...good, runId: 'kept' }]);
        const before = (await store.page({ limit: 10 })).items;
        const text = lines.join('\n');
        const chunks = Array.from({ length: Math.ceil(text.length / chunkSize) }, (_, i) => text.slice(i * chunkSize, (i + 1) * chunkSize));
        await typedOutcome(async () => {
          const report = await importJsonl(chunks, async (batch) => void (await store.add(batch)), { knownEnvs: ['shop', 'home'] });
          // Every line read is accounted for once, and every line of the text is read.
          expect(report.accepted + report.duplicates + report.rejectedCount + report.skipped).toBe(report.lines);
          expect(report.lines).toBe(linesIn(text));
          expect(await store.count()).toBe(2 + report.accepted);
        });
        expect((await store.page({ limit: 2 })).items).toEqual(before);
      }),
      RUNS,
    );
  });
});

describe('fuzz: store files', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'dg-fuzz-store-'));

  it('a first line is a checked meta or a problem naming a field, never a TypeError', () => {
    fc.assert(
      fc.property(metaLine, (text) => {
        const parsed = parseStoreMeta(text);
        if (parsed.ok) {
          expect(Array.isArray(parsed.meta.tasks) && Array.isArray(parsed.meta.runs) && Array.isArray(parsed.meta.stats)).toBe(true);
        } else expect(parsed.problem.length).toBeGreaterThan(0);
      }),
      RUNS,
    );
  });

  it('loading a damaged store file is a StoreFileError or a store, and leaves the file as it was', async () => {
    await fc.assert(
      fc.asyncProperty(jsonlText, fc.boolean(), async (text, withMeta) => {
        const file = path.join(dir, 'store.jsonl');
        const content = `${withMeta ? '{"$meta":{"version":1}}\n' : ''}${text}`;
        writeFileSync(file, content);
        const written = readFileSync(file);
        await typedOutcome(() => loadStoreFile(file));
        expect(readFileSync(file).equals(written)).toBe(true);
      }),
      { ...RUNS, numRuns: 60 },
    );
  });
});

describe('fuzz: actions', () => {
  it('any action string steps either environment without throwing, and an inadmissible one changes nothing', async () => {
    const shop = envSpec('shop');
    const home = envSpec('home');
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(shop, home), actionText, async (spec, action) => {
        const env = spec.createEnv();
        const [task] = spec.tasks(spec.testSplit);
        const first = await env.reset(task!);
        parseWebAction(action);
        const admissible = matchAdmissible(action, first.actions);
        const result = await env.step(action);
        if (admissible === null && !result.info.valid) expect(result.observation).toEqual(first);
        expect(typeof result.reward).toBe('number');
      }),
      RUNS,
    );
  });
});

describe('fuzz: model replies and prompts', () => {
  it('a reply parses to a prediction or a problem in words', () => {
    fc.assert(
      fc.property(modelReply, fc.constantFrom('web' as const, 'household' as const), (raw, syntax) => {
        const parsed = parseOutput(raw, syntax);
        if (parsed.ok) expect(Number.isFinite(parsed.prediction.reward)).toBe(true);
        else expect(parsed.problem.length).toBeGreaterThan(0);
      }),
      RUNS,
    );
  });

  it('a chat prompt reads back into a step or a UsageError', async () => {
    await fc.assert(
      fc.asyncProperty(chatMessages, async (messages) => {
        await typedOutcome(() => readPrompt(messages));
      }),
      RUNS,
    );
  });
});

describe('fuzz: .dgp and .dgx containers', () => {
  let policyBytes: Uint8Array;
  let modelBytes: Uint8Array;
  beforeAll(async () => {
    await useBackend(['cpu']);
    ({ policyBytes, modelBytes } = await validWeightFiles(4));
  });

  it('a damaged or random policy file is refused with a typed error, or loads', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(damaged(() => policyBytes), fc.uint8Array({ maxLength: 400 })), async (bytes) => {
        await typedOutcome(() => inspectPolicyFile(bytes));
        await typedOutcome(() => importPolicy(bytes).policy.dispose());
      }),
      { ...RUNS, numRuns: 80 },
    );
  });

  it('a damaged or random experience model file is refused with a typed error, or reads', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(damaged(() => modelBytes), fc.uint8Array({ maxLength: 400 })), async (bytes) => {
        await typedOutcome(() => inspectNeuralModel(bytes));
      }),
      { ...RUNS, numRuns: 80 },
    );
  });
});
