/**
 * Scripted shoppers. The oracle reads the goal and buys the target with the wanted options; the
 * random shopper picks uniformly among admissible actions, typing a few words of the instruction
 * where a query is needed. Together they seed the replay buffer as the paper does.
 */
import { SEARCH_TEMPLATE, clickAction, searchAction } from '../../core/actions.ts';
import { proposeQueries } from './queries.ts';
import type { Rng } from '../../core/rng.ts';
import { elementFields, headerValue, parseState } from '../../core/state.ts';
import type { Agent, Observation, Task } from '../../core/types.ts';
import type { ShopGoal } from './goal.ts';
import { BACK_TO_SEARCH, BUY_NOW, NEXT_PAGE, PREV } from './pages.ts';

/** Content words of an instruction, without the boilerplate price phrase. */
export function instructionWords(instruction: string): string[] {
  return instruction
    .toLowerCase()
    .replace(/,? and price lower than [\d.]+ dollars/, '')
    .replace(/\b(i need|i am looking for|find me|i want to buy|i'm looking for|get me|with)\b/g, ' ')
    .split(/[^a-z0-9.'-]+/)
    .filter((w) => w.length > 1);
}

export class ShopOracle implements Agent {
  readonly name = 'oracle';
  private goal: ShopGoal | null = null;
  private searches = 0;

  reset(task: Task): void {
    this.goal = task.goal as ShopGoal;
    this.searches = 0;
  }

  act(observation: Observation): string {
    const goal = this.goal;
    if (!goal) throw new Error('ShopOracle: reset(task) first');
    const state = parseState(observation.text);
    const page = headerValue(state, 'page');
    const can = (action: string) => observation.actions.includes(action);
    switch (page) {
      case 'search':
        // The target's own title ranks it first; the instruction is the fallback query.
        this.searches++;
        return searchAction(this.searches === 1 ? goal.title : instructionWords(goal.title + ' ' + goal.attributes.join(' ')).join(' '));
      case 'results':
        if (can(clickAction(goal.productId))) return clickAction(goal.productId);
        if (can(clickAction(NEXT_PAGE))) return clickAction(NEXT_PAGE);
        return clickAction(BACK_TO_SEARCH);
      case 'item': {
        const title = state.elements.find((e) => e.kind === 'text')?.text;
        if (title !== goal.title) return clickAction(PREV);
        for (const element of state.elements) {
          if (element.kind !== 'option') continue;
          const [value, type, mark] = elementFields(element);
          if (type !== undefined && goal.options[type] === value && mark !== 'selected') return clickAction(value as string);
        }
        return clickAction(BUY_NOW);
      }
      default:
        return clickAction(PREV);
    }
  }
}

export class ShopRandom implements Agent {
  readonly name = 'random';
  private words: string[] = [];

  constructor(private readonly rng: Rng) {}

  reset(task: Task): void {
    this.words = instructionWords(task.instruction);
  }

  act(observation: Observation): string {
    const action = this.rng.pick(observation.actions);
    if (action !== SEARCH_TEMPLATE) return action;
    const query = this.rng.sample(this.words, this.rng.range(1, Math.min(4, Math.max(1, this.words.length))));
    return searchAction(query.join(' ') || 'product');
  }
}

/** What an instruction says, as a shopper reads it: its content words, wanted options and price bound. */
export interface ReadInstruction {
  words: string[];
  /** Option type → wanted value (`color: space grey`). */
  options: Map<string, string>;
  priceBound: number;
}

export function readInstruction(instruction: string): ReadInstruction {
  const options = new Map<string, string>();
  for (const m of instruction.toLowerCase().matchAll(/(?:\bwith |, and )([a-z][a-z0-9 '-]*): ([^,]+)/g)) {
    options.set((m[1] as string).trim(), (m[2] as string).trim());
  }
  const bound = /price lower than ([\d.]+) dollars/.exec(instruction.toLowerCase())?.[1];
  return { words: instructionWords(instruction), options, priceBound: bound === undefined ? Infinity : Number(bound) };
}

/** The most products a shopper opens before it buys what it has. */
const SHOPPER_PRODUCTS = 3;

/**
 * A shopper that acts only on what the pages show, as a learned policy must: it searches with the
 * policy's own proposed queries, opens the result whose title and price fit the instruction best (now and
 * then the second or third best), picks the options the instruction names, goes back when the
 * page lacks a wanted option, and buys. It never sees the goal, so its purchases are the ones a
 * policy makes: look-alike products, attributes the page does not show. The oracle's purchases
 * alone would teach an experience model that a product with the wanted options always has the
 * wanted attributes too, because the oracle only ever buys the target.
 */
export class ShopShopper implements Agent {
  readonly name = 'shopper';
  private read: ReadInstruction = { words: [], options: new Map(), priceBound: Infinity };
  private opened = new Set<string>();
  private queries: string[] = [];
  private searches = 0;

  constructor(private readonly rng: Rng) {}

  reset(task: Task): void {
    this.read = readInstruction(task.instruction);
    this.queries = proposeQueries(task.instruction);
    this.opened = new Set();
    this.searches = 0;
  }

  act(observation: Observation): string {
    const state = parseState(observation.text);
    const can = (action: string) => observation.actions.includes(action);
    switch (headerValue(state, 'page')) {
      case 'search': {
        // A policy searches with one of these queries; searching with them too puts the result
        // pages it will see into the buffer (a query no episode issued leaves the experience model
        // to guess which products it lists). They come in the proposer's order, the whole request
        // first.
        const query = this.queries[this.searches % this.queries.length] ?? 'product';
        this.searches++;
        return searchAction(query);
      }
      case 'results': {
        const wanted = new Set(this.read.words);
        const ranked = state.elements
          .filter((e) => e.kind === 'link')
          .map((e) => elementFields(e))
          .filter(([id]) => id !== undefined && !this.opened.has(id) && can(clickAction(id)))
          .map(([id, title = '', price = '']) => {
            const overlap = title.toLowerCase().split(/\s+/).filter((w) => wanted.has(w)).length;
            const affordable = Number(price.replace(/[^0-9.]/g, '')) <= this.read.priceBound ? 1 : 0;
            return { id: id as string, score: overlap + 2 * affordable };
          })
          .sort((a, b) => b.score - a.score);
        if (ranked.length > 0 && this.opened.size < SHOPPER_PRODUCTS) {
          const pick = (this.rng.chance(0.7) ? ranked[0] : this.rng.pick(ranked.slice(0, 3))) as { id: string };
          this.opened.add(pick.id);
          return clickAction(pick.id);
        }
        if (can(clickAction(NEXT_PAGE)) && this.opened.size < SHOPPER_PRODUCTS) return clickAction(NEXT_PAGE);
        return clickAction(BACK_TO_SEARCH);
      }
      case 'item': {
        // Option lines read `value | type`, and `value | type | selected` once chosen.
        const options = state.elements.filter((e) => e.kind === 'option').map((e) => elementFields(e).map((f) => f.toLowerCase()));
        let lacking = false;
        for (const [type, value] of this.read.options) {
          const line = options.find(([v, t]) => v === value && t === type);
          if (!line) {
            lacking = true;
            continue;
          }
          const click = observation.actions.find((a) => a.toLowerCase() === clickAction(value));
          if (line[2] !== 'selected' && click) return click;
        }
        if (lacking && this.opened.size < SHOPPER_PRODUCTS && can(clickAction(PREV))) return clickAction(PREV);
        return clickAction(BUY_NOW);
      }
      default:
        return clickAction(PREV);
    }
  }
}
