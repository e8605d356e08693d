/**
 * What a person did on a live page, as the action the agent could have taken: the Play view plays
 * it through the env, so a person's step is a step like the policy's, and a recorded
 * demonstration holds only admissible actions.
 */
import { admitPageAction } from './actions.ts';
import type { PersonInput } from './driver/frame-bridge.ts';

export type { PersonInput };

/** The admissible action the input means, spelled as the page listed it; null when the page admits none. */
export function personAction(input: PersonInput, admissible: readonly string[]): string | null {
  const on = `#${input.id}`;
  switch (input.kind) {
    case 'click':
      // A checkbox or radio is checked or unchecked, a switch or a button clicked: whichever the page lists.
      for (const verb of ['click', 'check', 'uncheck']) {
        const action = admitPageAction(`${verb}[${on}]`, admissible);
        if (action) return action;
      }
      return null;
    case 'type':
      return admitPageAction(`type[${on} | ${input.text}]`, admissible);
    case 'select':
      return admitPageAction(`select[${on} | ${input.option}]`, admissible);
    case 'press':
      return admitPageAction(`press[${on} | ${input.key}]`, admissible);
  }
}
