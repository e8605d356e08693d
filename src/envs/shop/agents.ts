/**
 * Scripted shoppers. The oracle reads the goal and buys the target with the wanted options; the
 * random shopper picks uniformly among admissible actions, typing a few words of the instruction
 * where a query is needed. Together they seed the replay buffer as the paper does.
 */
import { SEARCH_TEMPLATE, clickAction, searchAction } from '../../core/actions.ts';
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
