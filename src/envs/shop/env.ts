/**
 * ShopEnv: a WebShop-like store behind the `Env` contract. Deterministic, no DOM. Only `Buy Now`
 * ends an episode and is rewarded; an invalid or malformed action gives reward 0 and leaves the
 * page as it was.
 */
import { matchKey, parseWebAction } from '../../core/actions.ts';
import { EnvStateError, UsageError } from '../../core/errors.ts';
import { renderState } from '../../core/state.ts';
import type { Env, Observation, StepResult, Task } from '../../core/types.ts';
import type { Product } from './catalog.ts';
import { isShopGoal, type ShopGoal } from './goal.ts';
import { BACK_TO_SEARCH, BUY_NOW, NEXT_PAGE, PREV, SUBPAGES, admissibleActions, pageCount, renderPage, type Page, type RenderedPage } from './pages.ts';
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

  constructor(
    private readonly world: ShopWorld,
    private readonly maxSteps = SHOP_MAX_STEPS,
  ) {}

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
    const truncated = !outcome.done && ep.steps >= this.maxSteps;
    ep.done = outcome.done || truncated;
    if (outcome.valid && outcome.page) {
      ep.page = outcome.page;
      Object.assign(ep, this.view(ep.page, ep.task, ep.selected));
    }
    return {
      observation: ep.observation,
      reward: outcome.reward,
      done: ep.done,
      info: { valid: outcome.valid, won: outcome.won, truncated, page: ep.page.kind, ...outcome.extra },
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
    valid: boolean; won: boolean; reward: number; done: boolean; page?: Page; extra?: Record<string, unknown>;
  } {
    const invalid = { valid: false, won: false, reward: 0, done: false };
    const parsed = parseWebAction(action);
    if (!parsed) return invalid;
    const page = ep.page;
    if (parsed.kind === 'search') {
      if (!ep.rendered.searchable) return invalid;
      return { ...invalid, valid: true, page: { kind: 'results', query: parsed.query, ids: this.world.search.search(parsed.query), page: 1 } };
    }
    const name = ep.rendered.clickables.get(matchKey(parsed.target));
    if (name === undefined) return invalid;
    const ok = (next: Page) => ({ ...invalid, valid: true, page: next });

    if (name === BACK_TO_SEARCH) {
      ep.selected = {};
      return ok({ kind: 'search' });
    }
    switch (page.kind) {
      case 'search':
        return invalid;
      case 'results':
        if (name === NEXT_PAGE) return ok({ ...page, page: Math.min(page.page + 1, pageCount(page)) });
        if (name === PREV) return ok({ ...page, page: Math.max(1, page.page - 1) });
        ep.selected = {};
        return ok({ kind: 'item', product: this.product(name), results: page });
      case 'subpage':
        // The only clickables besides Back to Search.
        return ok({ kind: 'item', product: page.product, results: page.results });
      case 'item': {
        if (name === PREV) return ok(page.results);
        const sub = SUBPAGES.find((s) => s === name);
        if (sub) return ok({ kind: 'subpage', name: sub, product: page.product, results: page.results });
        if (name === BUY_NOW) {
          const score = shopReward(page.product, ep.selected, ep.goal);
          return { valid: true, won: score.success, reward: score.reward, done: true, extra: { score, productId: page.product.id } };
        }
        const option = page.product.options.find((o) => o.values.includes(name));
        if (!option) return invalid;
        ep.selected = { ...ep.selected, [option.name]: name };
        return ok(page);
      }
    }
  }
}
