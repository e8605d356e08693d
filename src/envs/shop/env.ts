/**
 * ShopEnv: a WebShop-like store behind the `Env` contract. Deterministic, no DOM. Only `Buy Now`
 * ends an episode and is rewarded; an invalid or malformed action gives reward 0 and leaves the
 * page as it was. Every step says what it did and why its reward is what it is in
 * `info.explanation` (see `explain.ts`).
 */
import { matchKey, parseWebAction } from '../../core/actions.ts';
import { EnvStateError, UsageError } from '../../core/errors.ts';
import { renderState } from '../../core/state.ts';
import type { Env, Observation, StepResult, Task } from '../../core/types.ts';
import { finish } from '../explain.ts';
import type { Product } from './catalog.ts';
import * as explain from './explain.ts';
import { isShopGoal, type ShopGoal } from './goal.ts';
import { BACK_TO_SEARCH, BUY_NOW, NEXT_PAGE, PREV, SUBPAGES, admissibleActions, pageCount, renderPage, type Page, type RenderedPage, type ResultsPage } from './pages.ts';
import { shopReward } from './reward.ts';
import type { ShopWorld } from './world.ts';

export const SHOP_MAX_STEPS = 15;

interface Episode {
  task: Task;
  goal: ShopGoal;
  page: Page;
  selected: Record<string, string>;
  rendered: RenderedPage;
  observation: Observation;
  steps: number;
  done: boolean;
}

export class ShopEnv implements Env {
  readonly name = 'shop';
  private episode: Episode | null = null;

  constructor(private readonly world: ShopWorld) {}

  async reset(task: Task): Promise<Observation> {
    if (!isShopGoal(task.goal)) throw new UsageError(`task ${task.id} has no shop goal; shop tasks come from the shop task splits`);
    const page: Page = { kind: 'search' };
    this.episode = { task, goal: task.goal, page, selected: {}, steps: 0, done: false, ...this.view(page, task, {}) };
    return this.episode.observation;
  }

  async step(action: string): Promise<StepResult> {
    const ep = this.episode;
    if (!ep) throw new EnvStateError('shop: call reset(task) before step(action)');
    if (ep.done) throw new EnvStateError('shop: the episode is over; call reset(task) to start another');
    ep.steps++;
    const outcome = this.transition(ep, action);
    ep.done = outcome.done;
    if (outcome.valid && outcome.page) {
      ep.page = outcome.page;
      Object.assign(ep, this.view(ep.page, ep.task, ep.selected));
    }
    return {
      observation: ep.observation,
      reward: outcome.reward,
      done: ep.done,
      info: { valid: outcome.valid, won: outcome.won, truncated: false, page: ep.page.kind, ...outcome.extra, explanation: finish(outcome.explanation, false) },
    };
  }

  private view(page: Page, task: Task, selected: Record<string, string>): { rendered: RenderedPage; observation: Observation } {
    const rendered = renderPage(page, task.instruction, selected, (id) => this.product(id));
    return { rendered, observation: { text: renderState(rendered.state), actions: admissibleActions(rendered) } };
  }

  private product(id: string): Product {
    const product = this.world.catalog.byId.get(id);
    if (!product) throw new Error(`shop: unknown product ${id}`);
    return product;
  }

  private transition(ep: Episode, action: string): {
    valid: boolean; won: boolean; reward: number; done: boolean; page?: Page; extra?: Record<string, unknown>; explanation: string;
  } {
    const page = ep.page;
    const base = { valid: false, won: false, reward: 0, done: false };
    const invalid = (explanation = explain.invalidAction(action, page)) => ({ ...base, explanation });
    const parsed = parseWebAction(action);
    if (!parsed) return invalid(explain.malformedAction(action));
    if (parsed.kind === 'search') {
      if (!ep.rendered.searchable) return invalid(explain.invalidAction(action, page, 'which has no search box'));
      const results: ResultsPage = { kind: 'results', query: parsed.query, ids: this.world.search.search(parsed.query), page: 1 };
      return { ...base, valid: true, page: results, explanation: explain.searched(results) };
    }
    const name = ep.rendered.clickables.get(matchKey(parsed.target));
    if (name === undefined) return invalid();
    const ok = (next: Page, explanation: string) => ({ ...base, valid: true, page: next, explanation });

    if (name === BACK_TO_SEARCH) {
      // Choices matter only where they show: on the item page and its sub-pages.
      const hadSelection = (page.kind === 'item' || page.kind === 'subpage') && Object.keys(ep.selected).length > 0;
      ep.selected = {};
      return ok({ kind: 'search' }, explain.backToSearch(hadSelection));
    }
    switch (page.kind) {
      case 'search':
        return invalid();
      case 'results': {
        if (name === NEXT_PAGE) {
          const next = { ...page, page: Math.min(page.page + 1, pageCount(page)) };
          return ok(next, explain.turnedPage(next, true));
        }
        if (name === PREV) {
          const next = { ...page, page: Math.max(1, page.page - 1) };
          return ok(next, explain.turnedPage(next, false));
        }
        ep.selected = {};
        const product = this.product(name);
        return ok({ kind: 'item', product, results: page }, explain.openedItem(product));
      }
      case 'subpage':
        // The only clickables besides Back to Search.
        return ok({ kind: 'item', product: page.product, results: page.results }, explain.leftSubpage(page.name, page.product));
      case 'item': {
        if (name === PREV) return ok(page.results, explain.backToResults(page.results));
        const sub = SUBPAGES.find((s) => s === name);
        if (sub) return ok({ kind: 'subpage', name: sub, product: page.product, results: page.results }, explain.openedSubpage(sub, page.product));
        if (name === BUY_NOW) {
          const score = shopReward(page.product, ep.selected, ep.goal);
          return {
            valid: true, won: score.success, reward: score.reward, done: true, extra: { score, productId: page.product.id },
            explanation: explain.bought(page.product, score, ep.goal),
          };
        }
        const option = page.product.options.find((o) => o.values.includes(name));
        if (!option) return invalid();
        const previous = ep.selected[option.name];
        ep.selected = { ...ep.selected, [option.name]: name };
        return ok(page, explain.selectedOption(option.name, name, previous));
      }
    }
  }
}
