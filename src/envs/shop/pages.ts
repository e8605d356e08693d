/**
 * The store's pages as abstract states. Each page knows what it shows and what can be clicked;
 * the environment only moves between pages. Element texts follow the core format: the first
 * ` | ` field is what `click[...]` names.
 */
import { SEARCH_TEMPLATE, clickAction } from '../../core/actions.ts';
import { joinFields, type AbstractState, type StateElement } from '../../core/state.ts';
import { formatPrice, type Product } from './catalog.ts';

export const RESULTS_PER_PAGE = 10;
export const BACK_TO_SEARCH = 'Back to Search';
export const NEXT_PAGE = 'Next >';
export const PREV = '< Prev';
export const BUY_NOW = 'Buy Now';
export const SUBPAGES = ['Description', 'Features', 'Reviews'] as const;
export type SubpageName = (typeof SUBPAGES)[number];

export type Page =
  | { kind: 'search' }
  | { kind: 'results'; query: string; ids: string[]; page: number }
  | { kind: 'item'; product: Product; results: Extract<Page, { kind: 'results' }> }
  | { kind: 'subpage'; name: SubpageName; product: Product; results: Extract<Page, { kind: 'results' }> };

export type ResultsPage = Extract<Page, { kind: 'results' }>;

export interface RenderedPage {
  state: AbstractState;
  /** Clickable names as shown, mapped by the lowercase key an action is matched on. */
  clickables: Map<string, string>;
  searchable: boolean;
}

export function pageCount(results: ResultsPage): number {
  return Math.max(1, Math.ceil(results.ids.length / RESULTS_PER_PAGE));
}

export function renderPage(page: Page, instruction: string, selected: Readonly<Record<string, string>>, lookup: (id: string) => Product): RenderedPage {
  const elements: StateElement[] = [];
  const clickables = new Map<string, string>();
  const button = (name: string, kind = 'button') => {
    elements.push({ kind, text: name });
    clickables.set(name.toLowerCase(), name);
  };
  const header: [string, string][] = [['page', page.kind === 'subpage' ? page.name.toLowerCase() : page.kind], ['instruction', instruction]];

  switch (page.kind) {
    case 'search':
      elements.push({ kind: 'searchbox', text: 'Search' });
      return { state: { header, elements }, clickables, searchable: true };
    case 'results': {
      header.push(['query', page.query]);
      button(BACK_TO_SEARCH);
      elements.push({ kind: 'text', text: `Page ${page.page} (Total results: ${page.ids.length})` });
      if (page.page > 1) button(PREV);
      if (page.page < pageCount(page)) button(NEXT_PAGE);
      const start = (page.page - 1) * RESULTS_PER_PAGE;
      for (const id of page.ids.slice(start, start + RESULTS_PER_PAGE)) {
        const product = lookup(id);
        elements.push({ kind: 'link', text: joinFields(product.id, product.title, formatPrice(product.price)) });
        clickables.set(product.id, product.id);
      }
      break;
    }
    case 'item': {
      const p = page.product;
      button(BACK_TO_SEARCH);
      button(PREV);
      elements.push({ kind: 'text', text: p.title });
      elements.push({ kind: 'text', text: `Price: ${formatPrice(p.price)}` });
      elements.push({ kind: 'text', text: `Rating: ${p.rating.toFixed(1)}` });
      for (const option of p.options) {
        for (const value of option.values) {
          const fields = selected[option.name] === value ? [value, option.name, 'selected'] : [value, option.name];
          elements.push({ kind: 'option', text: joinFields(...fields) });
          clickables.set(value.toLowerCase(), value);
        }
      }
      for (const name of SUBPAGES) button(name);
      button(BUY_NOW);
      break;
    }
    case 'subpage': {
      const p = page.product;
      button(BACK_TO_SEARCH);
      button(PREV);
      if (page.name === 'Description') elements.push({ kind: 'text', text: p.description });
      if (page.name === 'Features') for (const f of p.features) elements.push({ kind: 'text', text: f });
      if (page.name === 'Reviews') for (const r of p.reviews) elements.push({ kind: 'text', text: joinFields(`${r.rating} stars`, r.text) });
      break;
    }
  }
  return { state: { header, elements }, clickables, searchable: false };
}

export function admissibleActions(rendered: RenderedPage): string[] {
  const actions = rendered.searchable ? [SEARCH_TEMPLATE] : [];
  for (const name of rendered.clickables.values()) actions.push(clickAction(name));
  return actions;
}
