/**
 * Action syntax. Web-like environments use WebShop's `search[query]` and `click[element]`;
 * the household uses ALFWorld's command strings, parsed by that environment.
 */

export type WebAction = { kind: 'search'; query: string } | { kind: 'click'; target: string };

/** The admissible-action template for a search box: any non-empty query may replace `...`. */
export const SEARCH_TEMPLATE = 'search[...]';

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
    if (candidate === SEARCH_TEMPLATE) continue;
    if (matchKey(candidate) === key) return candidate;
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
