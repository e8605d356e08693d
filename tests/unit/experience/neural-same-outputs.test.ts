/**
 * The neural model's speed work changes no output. Everything the heads read and the assembly uses
 * (each candidate's line, dense values, hashed strings, positions and origin; the reasoning and
 * transition rows; the header keys; the action candidates) and the predictions of a seeded network
 * on shop and home transitions are digested and compared with the digests the code gave before it
 * was made faster (issue 58 point 6). The same features fit the same weights, so every fidelity
 * figure stands. A change meant to alter the features changes these digests, and FEATURES_VERSION
 * (model-io.ts) with them.
 */
import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { envSpec } from '../../../src/envs/registry.ts';
import { heldoutInput, heldoutTransitions } from '../../../src/experience/fidelity.ts';
import { actionCandidates } from '../../../src/experience/neural/action-candidates.ts';
import { thingNames } from '../../../src/experience/neural/analogy.ts';
import { featureText } from '../../../src/experience/neural/features.ts';
import { stateLines } from '../../../src/experience/neural/lines.ts';
import { architectureOf, DEFAULT_NEURAL_CONFIG, NeuralExperienceModel } from '../../../src/experience/neural/model.ts';
import { NeuralNetwork } from '../../../src/experience/neural/network.ts';
import { transitionCandidates } from '../../../src/experience/neural/transition-candidates.ts';
import type { ExperienceInput } from '../../../src/experience/types.ts';
import { useBackend } from '../../../src/platform/tf.ts';
import { seededBuffer, seededTransitions } from './fixtures.ts';

beforeAll(async () => {
  await useBackend(['cpu']);
});

/** Held-out transitions posed as `experience eval` poses them, with the real next state each, and the thing names the buffer's states show. */
async function posed(env: string): Promise<{ inputs: ExperienceInput[]; nexts: string[]; things: Set<string> }> {
  const buffer = await seededBuffer(env, 30);
  const things = new Set((await seededTransitions(env, 30)).flatMap((t) => thingNames(stateLines(t.state))));
  const { heldout } = await heldoutTransitions(envSpec(env), 32, { oracle: 0.5, random: 0.5 }, 5);
  const examples = await buffer.nearest(heldout.map(({ transition: t }) => ({ instruction: t.instruction, state: t.state, action: t.action })), 3, { env, source: 'real' });
  return { inputs: heldout.map((h, i) => heldoutInput(h, examples[i] ?? [])), nexts: heldout.map((h) => h.transition.next.text), things };
}

const sha256 = (value: unknown): string => createHash('sha256').update(JSON.stringify(value)).digest('hex');
const plain = (features: { dense: readonly number[]; hashed: readonly (string | readonly string[])[] }) => ({ dense: features.dense, hashed: features.hashed.map(featureText) });

/** A digest of every candidate of every input: lines, reasoning, transition row, header keys, and the actions of the real next state (as a fit reads them). */
function candidatesDigest(inputs: readonly ExperienceInput[], nexts: readonly string[], things: ReadonlySet<string>): string {
  return sha256(
    inputs.map((input, i) => {
      const c = transitionCandidates(input, things);
      return {
        lines: c.lines.map((l) => [l.line.text, l.line.header, l.line.key, plain(l.features), [...l.positions], l.origin]),
        reasoning: c.reasoning.map((r) => [r.text, r.form, r.rewardedShare, r.order, plain(r.features)]),
        sources: c.reasoningSources,
        transition: plain(c.transition),
        headerKeys: c.headerKeys,
        actions: actionCandidates(c.actionContext, stateLines(nexts[i] as string)).map((a) => [a.action, plain(a.features)]),
      };
    }),
  );
}

/** Digests recorded at 7c0dcaa, before the speed work: shop and home, candidates and a seeded network's predictions. */
const BEFORE: Record<string, { candidates: string; predictions: string }> = {
  shop: { candidates: '48252ec943da1d3229f01981f64e41d6722dd28a81753316ab0905a02fdd7d42', predictions: '8018d44b1965fbf2037db54e897675e205f353f7f05764cefa6bbe550104571d' },
  home: { candidates: '78395d47305f7af595f463de17bdc7cd7dc0e6b73a2eb1d6d4b56f2e6ac1ab05', predictions: 'ff389f384861ce85d7e94e48eb2cd9ef4b44f2218493740042af17d6889e28a3' },
};

describe('the neural model after its speed work', () => {
  for (const env of ['shop', 'home']) {
    it(`gives ${env}'s candidates and predictions exactly as before, cold and with every memo warm`, async () => {
      const { inputs, nexts, things } = await posed(env);
      const cold = candidatesDigest(inputs, nexts, things);
      expect(candidatesDigest(inputs, nexts, things)).toBe(cold);
      const model = new NeuralExperienceModel(new NeuralNetwork(architectureOf(DEFAULT_NEURAL_CONFIG), { seed: 3 }), { env, config: DEFAULT_NEURAL_CONFIG, training: { things: [...things] } });
      const predictions = sha256([await model.predict(inputs.slice(0, 16)), await model.predict(inputs.slice(16))]);
      model.dispose();
      expect({ candidates: cold, predictions }).toEqual(BEFORE[env]);
    }, 60_000);
  }
});
