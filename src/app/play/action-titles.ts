/**
 * What a click names, in the state's own words: `click[b0muxzaiaf]` is a product code, and the
 * state lists that product as `link: b0muxzaiaf | acme running shoes | $45.99`. The action panel
 * shows the rest of the element's fields beside the bare code.
 */
import { matchKey, parseWebAction } from '../../core/actions.ts';
import { elementFields, parseState } from '../../core/state.ts';

/** action → what the state says about its target (its other fields, joined), for the clicks that name an element with more to say. */
export function actionTitles(stateText: string, actions: readonly string[]): Map<string, string> {
  const titles = new Map<string, string>();
  let elements;
  try {
    elements = parseState(stateText).elements;
  } catch {
    return titles;
  }
  const byTarget = new Map<string, string>();
  for (const element of elements) {
    const [target, ...rest] = elementFields(element);
    const said = rest.map((f) => f.trim()).filter((f) => f !== '');
    const key = matchKey(target ?? '');
    if (said.length > 0 && key !== '' && !byTarget.has(key)) byTarget.set(key, said.join(' · '));
  }
  for (const action of actions) {
    const web = parseWebAction(action);
    if (web?.kind !== 'click') continue;
    const title = byTarget.get(matchKey(web.target));
    if (title) titles.set(action, title);
  }
  return titles;
}
