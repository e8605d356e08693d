import { describe, expect, it } from 'vitest';
import type { Transition } from '../../../src/core/types.ts';
import { transitionCandidates } from '../../../src/experience/neural/transition-candidates.ts';
import { featureText } from '../../../src/experience/neural/features.ts';
import type { ExperienceInput } from '../../../src/experience/types.ts';

const instruction = 'find me cushioned running shoes with size: 12, and price lower than 110.00 dollars';
const page = (lines: string[]) => ({
  text: ['page: item', `instruction: ${instruction}`, '[1] button: Back to Search', '[2] text: terrafit cushioned running shoes', ...lines.map((l, i) => `[${i + 3}] ${l}`)].join('\n'),
  actions: [],
});

describe('in-place edits as candidates', () => {
  // The example chose a first size: its line gained `| selected`.
  const example: Transition = {
    id: 1, runId: 'r', taskId: 't', episodeId: 'r/1', env: 'shop', instruction,
    history: [], state: page(['option: 5 | size', 'option: 7 | size']), action: 'click[7]',
    next: page(['option: 5 | size', 'option: 7 | size | selected']), reward: 0, done: false, source: 'real', createdAt: 0,
  };
  // Ours switches from 13 to 14: the real shop takes the mark off 13.
  const input: ExperienceInput = {
    task: { id: 't', env: 'shop', instruction, difficulty: 0, origin: 'seed' },
    history: [],
    state: page(['option: 13 | size | selected', 'option: 14 | size']),
    action: 'click[14]',
    examples: [example],
  };

  it('offers the edit an example made, and the same edit undone where it only added a field', () => {
    const { lines } = transitionCandidates(input);
    const texts = lines.map((c) => c.line.text);
    expect(texts).toContain('option: 14 | size | selected');
    const unmarked = lines.find((c) => c.line.text === 'option: 13 | size');
    expect(unmarked).toBeDefined();
    // It competes with the current line it came from, and says it is an undone edit.
    const current = lines.find((c) => c.line.text === 'option: 13 | size | selected');
    expect(unmarked?.origin).toBe(current?.origin);
    expect(unmarked?.features.hashed.some((h) => featureText(h).includes(' undo '))).toBe(true);
    // Nothing to undo on a line without the field.
    expect(texts).not.toContain('option: 14 | size | selected | selected');
  });

  it('offers no undone edit when the example replaced text rather than adding a field', () => {
    const replaced: Transition = { ...example, state: page(['text: Price: $10.00']), action: 'click[Next]', next: page(['text: Price: $12.00']) };
    const { lines } = transitionCandidates({ ...input, state: page(['text: Price: $12.00', 'option: 13 | size | selected']), examples: [replaced] });
    expect(lines.map((c) => c.line.text)).not.toContain('text: Price: $10.00');
  });
});
