import * as tf from '@tensorflow/tfjs-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalState } from '../../../src/core/state.ts';
import { scoreTransition } from '../../../src/experience/fidelity.ts';
import { alignActions, alignTasks, analogy } from '../../../src/experience/neural/analogy.ts';
import { elementNumber, highestElementNumber, renumbering } from '../../../src/experience/neural/element-numbers.ts';
import { stateLines } from '../../../src/experience/neural/lines.ts';
import { mapper } from '../../../src/experience/neural/phrase-map.ts';
import { fitNeuralModel } from '../../../src/experience/neural/fit.ts';
import { ModelFileError } from '../../../src/experience/neural/model-file.ts';
import { exportNeuralModel, importNeuralModel, inspectNeuralModel } from '../../../src/experience/neural/model-io.ts';
import { encodeExperienceFile, decodeExperienceFile } from '../../../src/experience/neural/model-file.ts';
import type { CandidateCache } from '../../../src/experience/neural/model.ts';
import { useBackend } from '../../../src/platform/tf.ts';
import { seededBuffer } from './fixtures.ts';

// wasm: the model's products cost several times as much on the cpu backend (plain JS), and nothing
// here compares numbers across backends (a round trip predicts on the backend it was fitted on).
beforeAll(async () => {
  await useBackend(['wasm']);
});
afterAll(async () => {
  await useBackend(['cpu']);
});

const info = { backend: 'wasm', training: { test: true }, evaluation: null, createdAt: '2026-11-21T00:00:00.000Z' };

describe('the analogy that carries an example over', () => {
  it('aligns bracket arguments whole and commands by differing runs of words', () => {
    expect(alignActions('click[8 oz]', 'click[12 oz]')).toEqual([['8 oz', '12 oz']]);
    expect(alignActions('take apple 1 from countertop 1', 'take mug 2 from cabinet 3')).toEqual([
      ['apple 1', 'mug 2'],
      ['countertop 1', 'cabinet 3'],
    ]);
  });

  it('replaces whole phrases only, all at once', () => {
    const map = mapper([
      ['cabinet 1', 'drawer 2'],
      ['drawer 2', 'shelf 1'],
    ]);
    expect(map('You open cabinet 1. cabinet 10 and drawer 2 stay.')).toBe('You open drawer 2. cabinet 10 and shelf 1 stay.');
  });

  it("maps the fields of the element an example's action names to the fields of ours", () => {
    const example = {
      instruction: 'old task',
      state: { text: 'page: results\ninstruction: old task\n[1] link: b001 | red shoe | $10.00', actions: ['click[b001]'] },
      action: 'click[b001]',
    };
    const lines = stateLines('page: results\ninstruction: new task\n[1] link: b002 | blue hat | $20.00');
    const { base } = analogy({ instruction: example.instruction, lines: stateLines(example.state), action: example.action }, { instruction: 'new task', lines, action: 'click[b002]' });
    const map = mapper(base);
    expect(map('text: red shoe')).toBe('text: blue hat');
    expect(map('text: Price: $10.00')).toBe('text: Price: $20.00');
    expect(map('instruction: old task')).toBe('instruction: new task');
  });

  it('aligns the fields of a bracket argument too: the page shows a typed value alone', () => {
    expect(alignActions('type[#23 To | mateo.costa@example.org]', 'type[#26 To | ivan.santos@example.org]')).toEqual([
      ['#23 To | mateo.costa@example.org', '#26 To | ivan.santos@example.org'],
      ['#23 To', '#26 To'],
      ['mateo.costa@example.org', 'ivan.santos@example.org'],
    ]);
    // One field: the argument whole, as before.
    expect(alignActions('search[red shoe]', 'search[blue hat]')).toEqual([['red shoe', 'blue hat']]);
  });

  it("writes our task's words as our task spells them", () => {
    expect(alignTasks('Forward the e-mail from Wei Kowalski.', 'Forward the e-mail from Quinn Usman.')).toEqual([['wei kowalski', 'Quinn Usman']]);
    expect(mapper(alignTasks('Forward the e-mail from Wei Kowalski.', 'Forward the e-mail from Quinn Usman.'))('text: From: Wei Kowalski')).toBe('text: From: Quinn Usman');
    // Lower-case tasks (the shop's, the household's) map as they did.
    expect(alignTasks('put a hot apple in fridge.', 'put a hot mug in fridge.')).toEqual([['apple', 'mug']]);
  });

  it("numbers the elements a page opened by the action shows on from our page's count", () => {
    const exState = stateLines('title: Forum\n[1] link: #1 Thoughts on ember\n[2] link: #2 Help with kiwi');
    const exNext = stateLines('title: Forum\n[1] heading: Thoughts on ember\n[2] button: #3 Upvote this thread\n[3] button: #4 All threads');
    const ours = stateLines('title: Forum\n[1] link: #1 Tips for pearl\n[2] link: #2 Thoughts on orbit\n[3] link: #3 Help with mango\n[4] link: #4 Question about kiwi');
    expect(elementNumber(exNext[3] as (typeof exNext)[number])).toBe(4);
    expect(elementNumber(exNext[0] as (typeof exNext)[number])).toBeNull(); // the header
    expect(highestElementNumber(exState)).toBe(2);
    expect(highestElementNumber(ours)).toBe(4);
    expect(renumbering([3, 4], 2, 4)).toEqual([
      ['#3', '#5'],
      ['#4', '#6'],
    ]);
    expect(renumbering([3, 4], 2, 2)).toEqual([]); // the same count: nothing to move
    expect(renumbering([3, 4], 0, 4)).toEqual([]); // a page without numbers says nothing
    // The element the action names maps whole and by its name alone: the page it opens shows the name as its heading.
    const { lines } = analogy(
      { instruction: 'Upvote the thread.', lines: exState, action: 'click[#1 Thoughts on ember]' },
      { instruction: 'Upvote the thread.', lines: ours, action: 'click[#2 Thoughts on orbit]' },
    );
    const map = mapper([...lines, ...renumbering([3, 4], 2, 4)]);
    expect(exNext.map((l) => map(l.text))).toEqual(['title: Forum', 'heading: Thoughts on orbit', 'button: #5 Upvote this thread', 'button: #6 All threads']);
  });
});

describe('NeuralExperienceModel', () => {
  it('overfits a tiny buffer exactly: every next state, action list, reward and done it was trained on', async () => {
    const buffer = await seededBuffer('shop', 4, 2);
    // 20 epochs: it is exact from 10 (on the cpu backend and on wasm alike; 8 still misses one), so twice
    // that leaves room for a featurizer change; 60 cost three times as much and proved nothing more.
    const fit = await fitNeuralModel({ buffer, env: 'shop', epochs: 20, batchSize: 64, learningRate: 0.01, validationShare: 0, ownEpisodeExamples: true, seed: 3 });
    expect(fit.inputs.length).toBeGreaterThan(10);
    const predictions = await fit.model.predict(fit.inputs.map((x) => x.input));
    predictions.forEach((p, i) => {
      const real = fit.inputs[i]!.real;
      const score = scoreTransition(p, real);
      expect(canonicalState(p.next.text), `transition ${i}: ${real.action}`).toBe(canonicalState(real.next.text));
      expect(score.actionSetF1).toBe(1);
      expect(score.rewardError).toBeLessThanOrEqual(0.05);
      expect(score.doneRight).toBe(true);
      expect(p.valid).toBe(true);
      expect(p.reasoning.length).toBeGreaterThan(0);
    });
    fit.model.dispose();
    // Every candidate row (history states add rows) each epoch: 60 epochs measured 94 s and 143 s with two dream runs sharing the 2 cores.
  }, 300_000);

  it('stops a fit whose loss goes non-finite, keeping nothing, and says the learning rate did it', async () => {
    const buffer = await seededBuffer('shop', 4, 2);
    const tensors = tf.memory().numTensors;
    await expect(fitNeuralModel({ buffer, env: 'shop', epochs: 2, learningRate: 1e30, validationShare: 0, seed: 3 })).rejects.toThrow(
      /the experience model's fit diverged in epoch 1: its \w+ head's loss became (NaN|Infinity|-Infinity), so the fit stopped and kept nothing; the learning rate 1e\+30 is too high/,
    );
    expect(tf.memory().numTensors).toBe(tensors);
  }, 60_000);

  it('gives identical predictions after a .dgx round trip', async () => {
    const buffer = await seededBuffer('home', 4, 1);
    const fit = await fitNeuralModel({ buffer, env: 'home', epochs: 2, validationShare: 0 });
    const batch = fit.inputs.slice(0, 24).map((x) => x.input);
    const before = await fit.model.predict(batch);
    const bytes = await exportNeuralModel(fit.model, info);
    const header = inspectNeuralModel(bytes);
    expect(header.env).toBe('home');
    expect(header.algorithm).toBe('supervised');
    const { model } = importNeuralModel(bytes);
    expect(await model.predict(batch)).toEqual(before);
    // A candidate cache (the fit's held-out inputs, posed each epoch) changes nothing, filled or read.
    const candidates: CandidateCache = new WeakMap();
    expect(await model.predict(batch, { candidates })).toEqual(before);
    expect(batch.every((input) => candidates.has(input))).toBe(true);
    expect(await model.predict(batch, { candidates })).toEqual(before);
    model.dispose();
    fit.model.dispose();
  }, 120_000);

  it('calls an ending a success from the success reward its fit calibrated, and keeps it in its file', async () => {
    const buffer = await seededBuffer('shop', 6, 2);
    const fit = await fitNeuralModel({ buffer, env: 'shop', epochs: 1, validationShare: 0 });
    const batch = fit.inputs.map((x) => x.input);
    // Uncalibrated (no held-out endings): no call of its own; the default rule decides.
    expect((await fit.model.predict(batch)).every((p) => p.won === undefined)).toBe(true);
    fit.model.calibrateSuccess(0.6);
    const predicted = await fit.model.predict(batch);
    expect(predicted.some((p) => p.done)).toBe(true);
    for (const p of predicted) expect(p.won).toBe(p.done && p.reward >= 0.6);
    const bytes = await exportNeuralModel(fit.model, info);
    expect(inspectNeuralModel(bytes).training).toMatchObject({ successReward: 0.6 });
    const { model } = importNeuralModel(bytes);
    expect(await model.predict(batch)).toEqual(predicted);
    model.dispose();
    fit.model.dispose();
  }, 120_000);

  it('keeps the success reward it started from where its held-out endings are too few to calibrate one', async () => {
    // Home pays every ending 0 or 1: a fit from nothing, calibrating nothing, reads the likelier of the two.
    const buffer = await seededBuffer('home', 6, 1);
    const scratch = await fitNeuralModel({ buffer, env: 'home', epochs: 1, validationShare: 0 });
    expect(scratch.model.knowledge()).toMatchObject({ successReward: 0.5 });
    // A fine-tune whose held-out episodes hold under MIN_CALIBRATION_ENDINGS of each kind keeps its initial model's.
    scratch.model.calibrateSuccess(0.6);
    const tuned = await fitNeuralModel({ buffer, env: 'home', epochs: 1, validationShare: 0.5, init: scratch.model });
    expect(tuned.validationTransitions).toBeGreaterThan(0);
    expect(tuned.model.knowledge()).toMatchObject({ successReward: 0.6 });
    tuned.model.dispose();
    scratch.model.dispose();
  }, 120_000);

  it('refuses a file whose feature layout this build does not compute, and a policy file', async () => {
    const buffer = await seededBuffer('shop', 2, 1);
    const fit = await fitNeuralModel({ buffer, env: 'shop', epochs: 1, validationShare: 0 });
    const bytes = await exportNeuralModel(fit.model, info);
    const { header, weights } = decodeExperienceFile(bytes);
    const other = encodeExperienceFile({ ...header, featurizer: { ...header.featurizer, version: 999 } }, weights);
    expect(() => importNeuralModel(other)).toThrow(ModelFileError);
    expect(() => importNeuralModel(other)).toThrow(/different feature layout/);
    const policyLike = new Uint8Array(bytes);
    policyLike.set(new TextEncoder().encode('DGPF'), 0);
    expect(() => importNeuralModel(policyLike)).toThrow(/policy file/);
    fit.model.dispose();
  }, 60_000);

  it('answers a whole batch, including inputs without examples, without throwing', async () => {
    const buffer = await seededBuffer('shop', 3, 1);
    const fit = await fitNeuralModel({ buffer, env: 'shop', epochs: 1, validationShare: 0 });
    const inputs = fit.inputs.slice(0, 5).map((x) => ({ ...x.input, examples: [] }));
    const predictions = await fit.model.predict(inputs);
    expect(predictions).toHaveLength(5);
    for (const p of predictions) expect(p.reward).toBeGreaterThanOrEqual(0);
    fit.model.dispose();
  }, 60_000);
});
