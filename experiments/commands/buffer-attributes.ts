/**
 * `buffer-attributes`: prints, for a shop buffer's real purchases, how often a wanted attribute
 * the bought product's title does not show was met, for the task's target and for other products
 * (see ../buffer-attributes.ts).
 *
 * `npm run experiment -- buffer-attributes --buffer FILE.jsonl  (shop)`
 */
import { parseArgs } from 'node:util';
import { tallyAttributes } from '../buffer-attributes.ts';
import { elementFields, parseState } from '../../src/core/state.ts';
import type { Product } from '../../src/envs/shop/catalog.ts';
import { isShopGoal, type ShopGoal } from '../../src/envs/shop/goal.ts';
import { shopWorld } from '../../src/envs/shop/world.ts';
import { loadStoreFile } from '../../src/replay/file-store.ts';
import { usage } from './common.ts';

/** A shop buffer's purchases: which wanted attributes the bought product's title hides, and whether they were met. */
export async function printBufferAttributes(argv: string[]): Promise<void> {
  const { values } = parseArgs({ args: argv, options: { buffer: { type: 'string' } }, strict: true });
  const bufferFile = values.buffer ?? usage('--buffer FILE.jsonl is required');
  const { transitions } = await loadStoreFile(bufferFile);
  const world = shopWorld();
  const tasks = new Map([...world.tasks.train, ...world.tasks.test].map((t) => [t.id, t]));
  const byTitle = new Map(world.catalog.products.map((p) => [p.title, p]));
  const purchases: { product: Product; selected: Record<string, string>; goal: ShopGoal }[] = [];
  let unresolved = 0;
  for (const t of transitions) {
    if (t.source !== 'real' || t.env !== 'shop' || t.action !== 'click[Buy Now]') continue;
    // The item page's first text line is the product's title (envs/shop/pages.ts); a chosen
    // option reads `value | type | selected`.
    const state = parseState(t.state.text);
    const title = state.elements.find((e) => e.kind === 'text')?.text;
    const product = title === undefined ? undefined : byTitle.get(title);
    const goal = tasks.get(t.taskId)?.goal;
    const chosen = state.elements.filter((e) => e.kind === 'option').map(elementFields).filter((f) => f[2] === 'selected');
    const selected = Object.fromEntries(chosen.map(([value, type]) => [type as string, value as string]));
    if (product && isShopGoal(goal)) purchases.push({ product, selected, goal });
    else unresolved++;
  }
  process.stdout.write(`${JSON.stringify({ buffer: bufferFile, unresolved, ...tallyAttributes(purchases) })}\n`);
}
