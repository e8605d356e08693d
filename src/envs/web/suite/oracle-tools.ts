/**
 * What the bundled tasks' oracles share: they read the page as a policy does (the element lines
 * of the observation) and name what to do in the env's action syntax, so an oracle that succeeds
 * proves the admissible actions suffice for the task.
 */
import type { Observation } from '../../../core/types.ts';
import { pageAction, type PageVerb } from '../actions.ts';
import { shownElements, type ShownElement } from '../snapshot.ts';

/** The first element with `role` whose name is `name` (case- and space-insensitive), or null. */
export function findElement(observation: Observation, role: string | readonly string[], name: string): ShownElement | null {
  const roles = typeof role === 'string' ? [role] : role;
  const key = name.replace(/\s+/g, ' ').trim().toLowerCase();
  return shownElements(observation.text).find((e) => e.id !== undefined && roles.includes(e.role) && e.name.toLowerCase() === key) ?? null;
}

/** The action on `element`, or `fallback` (an action the page will call invalid) when the element is not shown. */
export function on(element: ShownElement | null, verb: PageVerb, value?: string): string {
  if (!element || element.id === undefined) return 'click[#0]';
  return pageAction(verb, element.id, element.name, value);
}

/** The ids of what the page shows with `role`. */
export function elementsWithRole(observation: Observation, role: string): ShownElement[] {
  return shownElements(observation.text).filter((e) => e.role === role && e.id !== undefined);
}
