/**
 * The candidates' caches (facts worked out once per example, memoised lines, words and forms) are
 * shared by every transition that retrieves the same example: nothing that reads them may change
 * them. Candidates worked out cold, then again with every cache warm, then from copies of the
 * inputs (new objects, so no per-object cache can answer) are the same.
 */
import { describe, expect, it } from 'vitest';
import { envSpec } from '../../../src/envs/registry.ts';
import { heldoutInput, heldoutTransitions } from '../../../src/experience/fidelity.ts';
import { actionCandidates } from '../../../src/experience/neural/action-candidates.ts';
import { transitionCandidates } from '../../../src/experience/neural/transition-candidates.ts';
import { thingNames } from '../../../src/experience/neural/analogy.ts';
import { stateLines } from '../../../src/experience/neural/lines.ts';
import type { ExperienceInput } from '../../../src/experience/types.ts';
import { seededBuffer, seededTransitions } from './fixtures.ts';

async function posed(env: string): Promise<{ inputs: ExperienceInput[]; things: Set<string> }> {
  const buffer = await seededBuffer(env, 30);
  const things = new Set((await seededTransitions(env, 30)).flatMap((t) => thingNames(stateLines(t.state))));
  const { heldout } = await heldoutTransitions(envSpec(env), 40, { oracle: 0.5, random: 0.5 }, 3);
  const examples = await buffer.nearest(heldout.map(({ transition: t }) => ({ instruction: t.instruction, state: t.state, action: t.action })), 4, { env, source: 'real' });
  return { inputs: heldout.map((h, i) => heldoutInput(h, examples[i] ?? [])), things };
}

/** Everything the heads and the assembly read of one transition's candidates, as plain data. */
function everything(input: ExperienceInput, things: ReadonlySet<string>): unknown {
  const c = transitionCandidates(input, things);
  const actions = actionCandidates(c.actionContext, c.lines.map((l) => l.line));
  return { lines: c.lines.map((l) => [l.line, l.features, [...l.positions], l.origin]), reasoning: c.reasoning, transition: c.transition, headerKeys: c.headerKeys, actions };
}

describe('candidate caches', () => {
  for (const env of ['shop', 'home']) {
    it(`give ${env}'s candidates unchanged, warm or cold, whichever objects carry the inputs`, async () => {
      const { inputs, things } = await posed(env);
      // Examples recur across inputs, or the caches are not exercised.
      const ids = inputs.flatMap((i) => i.examples.map((e) => e.id));
      expect(new Set(ids).size).toBeLessThan(ids.length);
      const cold = inputs.map((i) => everything(i, things));
      const warm = inputs.map((i) => everything(i, things));
      const copies = structuredClone(inputs).map((i) => everything(i, things));
      expect(warm).toEqual(cold);
      expect(copies).toEqual(cold);
    });
  }
});
