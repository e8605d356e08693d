/**
 * `npm run bench -- robustness [--per-class 300] [--seed 1]`: hostile inputs of each class (see
 * hostile-inputs.ts), and how each ended: accepted, refused with which typed error (by code) or
 * problem, or — the failures — an untyped error or a 5xx from the server. Then, through the CLI
 * (robustness-cli.ts), hostile files behind every file a command reads and outputs that name an
 * input. The figures to quote, each of which must be 0: `untyped`, `killedForMemory`, `hung`,
 * `silentDrops` (an import whose counts do not add up to the lines it read) and `overwrittenInputs`.
 */
import fc from 'fast-check';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DreamGymError } from '../src/core/errors.ts';
import { envSpec } from '../src/envs/registry.ts';
import { inspectNeuralModel } from '../src/experience/neural/model-io.ts';
import { startChatServer } from '../src/experience/llm/chat-server.ts';
import { KnnExperienceModel } from '../src/experience/knn.ts';
import { parseOutput } from '../src/experience/output.ts';
import { readPrompt } from '../src/experience/prompt-reader.ts';
import { protocolAnswerer } from '../src/experience/serve-answer.ts';
import { useBackend } from '../src/platform/tf.ts';
import { importPolicy } from '../src/policy/policy-file.ts';
import { importJsonl, parseLine } from '../src/replay/jsonl.ts';
import { parseStoreMeta } from '../src/replay/store-meta.ts';
import { actionText, chatMessages, chatRequest, damaged, jsonlText, metaLine, modelReply, mutatedTransition, texty, validWeightFiles } from './hostile-inputs.ts';
import { benchOptions } from './options.ts';
import { hostileFileClass, overlapClass } from './robustness-cli.ts';

/** How one input ended: an outcome name, counted per class. */
type Outcome = string;

/** A thrown error as an outcome: the typed ones by code, anything else is `untyped`. */
function thrown(error: unknown): Outcome {
  return error instanceof DreamGymError && error.message.length > 0 ? `refused:${error.code}` : 'untyped';
}

async function tally<T>(inputs: T[], run: (input: T) => Promise<Outcome> | Outcome): Promise<{ tried: number; outcomes: Record<string, number>; untyped: number; firstUntyped?: string }> {
  const outcomes: Record<string, number> = {};
  let firstUntyped: string | undefined;
  for (const input of inputs) {
    let outcome: Outcome;
    try {
      outcome = await run(input);
    } catch (error) {
      outcome = thrown(error);
      if (outcome === 'untyped') firstUntyped ??= `${String(error)} on ${JSON.stringify(input).slice(0, 200)}`;
    }
    outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
  }
  return { tried: inputs.length, outcomes, untyped: outcomes.untyped ?? 0, ...(firstUntyped ? { firstUntyped } : {}) };
}

export async function robustnessBench(argv: string[]): Promise<unknown> {
  const { 'per-class': numRuns, seed } = benchOptions(argv, { 'per-class': 300, seed: 1 });
  const sample = <T>(arbitrary: fc.Arbitrary<T>) => fc.sample(arbitrary, { seed, numRuns });
  await useBackend(['cpu']);

  const { policyBytes, modelBytes, buffer } = await validWeightFiles(20);

  const classes: Record<string, unknown> = {};
  classes.jsonlLine = await tally(sample(fc.oneof(texty, mutatedTransition)), (text) => {
    const parsed = parseLine(text);
    return parsed === null ? 'skipped (blank or $meta)' : parsed.ok ? 'accepted' : 'bad line';
  });
  let silentDrops = 0;
  classes.jsonlFile = await tally(sample(jsonlText), async (text) => {
    const report = await importJsonl([text], async () => {}, { knownEnvs: ['shop', 'home'] });
    // A line neither accepted, a duplicate, rejected nor passed over (blank, $meta) was dropped silently.
    if (report.accepted + report.duplicates + report.rejectedCount + report.skipped !== report.lines) silentDrops++;
    return report.accepted > 0 ? 'some lines accepted' : report.rejectedCount > 0 ? 'every line bad' : 'no lines';
  });
  (classes.jsonlFile as Record<string, unknown>).silentDrops = silentDrops;
  classes.storeMeta = await tally(sample(metaLine), (text) => (parseStoreMeta(text).ok ? 'accepted' : 'refused with the field'));
  for (const name of ['shop', 'home']) {
    const spec = envSpec(name);
    const env = spec.createEnv();
    const [task] = spec.tasks(spec.testSplit);
    classes[`action.${name}`] = await tally(sample(actionText), async (action) => {
      await env.reset(task!);
      const result = await env.step(action);
      return result.info.valid ? 'valid' : 'invalid (reward 0, state kept)';
    });
  }
  classes.modelReply = await tally(sample(fc.tuple(modelReply, fc.constantFrom('web' as const, 'household' as const))), ([raw, syntax]) => (parseOutput(raw, syntax).ok ? 'parsed' : 'problem'));
  classes.chatPrompt = await tally(sample(chatMessages), (messages) => {
    readPrompt(messages);
    return 'read';
  });
  classes.policyFile = await tally(sample(fc.oneof(damaged(() => policyBytes), fc.uint8Array({ maxLength: 400 }))), (bytes) => {
    importPolicy(bytes).policy.dispose();
    return 'loaded';
  });
  classes.modelFile = await tally(sample(fc.oneof(damaged(() => modelBytes), fc.uint8Array({ maxLength: 400 }))), (bytes) => {
    inspectNeuralModel(bytes);
    return 'read';
  });

  const server = await startChatServer({ model: 'knn', apiKey: 'room-secret-1', rateLimit: 0, answer: protocolAnswerer(new KnnExperienceModel(), buffer, 3) });
  try {
    classes.serverRequest = await tally(sample(chatRequest), async (request) => {
      const headers: Record<string, string> = {};
      if (request.contentType) headers['Content-Type'] = request.contentType;
      if (request.origin) headers.Origin = request.origin;
      if (request.key) headers.Authorization = request.key;
      const response = await fetch(`${server.url}${request.path}`, { method: request.method, headers, ...(request.method === 'GET' || request.method === 'OPTIONS' ? {} : { body: request.body }) });
      await response.arrayBuffer();
      return response.status >= 500 ? 'untyped' : `status ${response.status}`;
    });
  } finally {
    await server.close();
  }

  // Through the CLI itself: hostile files behind every file a command reads, and outputs that name an input.
  const dir = mkdtempSync(path.join(tmpdir(), 'dreamgym-robustness-'));
  let hostileFiles: Awaited<ReturnType<typeof hostileFileClass>>;
  try {
    hostileFiles = await hostileFileClass(path.join(dir, 'files'));
    classes.hostileFile = hostileFiles.count;
    classes.outputOverInput = await overlapClass(path.join(dir, 'overlap'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  const total = (field: string): number => Object.values(classes).reduce((sum: number, c) => sum + ((c as Record<string, number>)[field] ?? 0), 0);
  return {
    perClass: numRuns,
    seed,
    untyped: total('untyped'),
    killedForMemory: total('killedForMemory'),
    hung: total('hung'),
    silentDrops: total('silentDrops'),
    overwrittenInputs: total('overwrittenInputs'),
    hostileFileSlowestMs: hostileFiles.slowestMs,
    hostileFilePeakRssMiB: hostileFiles.peakRssMiB,
    classes,
  };
}
