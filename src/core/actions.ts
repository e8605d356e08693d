/**
 * Action syntax. Web-like environments use WebShop's `search[query]` and `click[element]`;
 * the household uses ALFWorld's command strings, parsed by that environment.
 */

export type WebAction = { kind: 'search'; query: string } | { kind: 'click'; target: string };

/** What stands for free text in an admissible action's template (`search[...]`, the web env's `type[#9 Email | ...]`). */
export const FREE_TEXT = '...';

/** The admissible-action template for a search box: any non-empty query may replace `...`. */
export const SEARCH_TEMPLATE = `search[${FREE_TEXT}]`;

/** The action admits free text where its template says `...` (always at the end, before `]`). */
export function isTemplate(action: string): boolean {
  return action.endsWith(`${FREE_TEXT}]`);
}

/** The template with its free text filled in. */
export function fillTemplate(template: string, text: string): string {
  return `${template.slice(0, -(FREE_TEXT.length + 1))}${text}]`;
}

const WEB_ACTION = /^(search|click)\[(.*)\]$/is;

/** Parse `search[q]` / `click[x]`; null when the text is not of that shape or the argument is empty. */
export function parseWebAction(action: string): WebAction | null {
  if (typeof action !== 'string' || action.length > 4096) return null;
  const match = WEB_ACTION.exec(action.trim());
  if (!match) return null;
  const arg = normalizeText(match[2] as string);
  if (arg === '') return null;
  return (match[1] as string).toLowerCase() === 'search' ? { kind: 'search', query: arg } : { kind: 'click', target: arg };
}

export function searchAction(query: string): string {
  return `search[${query}]`;
}

export function clickAction(target: string): string {
  return `click[${target}]`;
}

/** Whitespace-collapsed and trimmed; what two texts are compared on, with case folded by the caller. */
export function normalizeText(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Case- and whitespace-insensitive key used to match a clicked name against clickables. */
export function matchKey(text: string): string {
  return normalizeText(text).toLowerCase();
}

/**
 * The admissible action this text names, spelled as the list spells it, or null when it names none.
 * `search[...]` in the list admits any non-empty query; clicks and commands match case- and
 * whitespace-insensitively, as the real environments match them.
 */
export function matchAdmissible(action: string, admissible: readonly string[]): string | null {
  const web = parseWebAction(action);
  if (web?.kind === 'search') return admissible.includes(SEARCH_TEMPLATE) ? searchAction(web.query) : null;
  const key = matchKey(action);
  for (const candidate of admissible) {
    if (isTemplate(candidate)) continue;
    if (matchKey(candidate) === key) return candidate;
  }
  // Any other template admits the action that fills it: the same text before `...`, some after.
  for (const candidate of admissible) {
    if (!isTemplate(candidate) || candidate === SEARCH_TEMPLATE) continue;
    const prefix = candidate.slice(0, -(FREE_TEXT.length + 1));
    const text = action.trim();
    if (text.length > prefix.length + 1 && text.endsWith(']') && matchKey(text.slice(0, prefix.length)) === matchKey(prefix)) {
      const filled = text.slice(prefix.length, -1);
      if (filled.trim() !== '') return fillTemplate(candidate, filled);
    }
  }
  if (web?.kind === 'click') {
    const target = matchKey(web.target);
    for (const candidate of admissible) {
      const parsed = parseWebAction(candidate);
      if (parsed?.kind === 'click' && matchKey(parsed.target) === target) return candidate;
    }
  }
  return null;
}
