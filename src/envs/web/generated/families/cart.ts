/**
 * Carts and checkout (held out of pretraining): a shop of the domain's goods, a product page with
 * an option, a cart, and a checkout of two steps (shipping with a delivery choice, then review).
 * The goal buys one or two products, each in an option, shipped to a person at an address by a
 * delivery; placing the order checks all of it (public/web/generated/families/cart.js). Every
 * instance takes the oracle at least nine steps.
 */
import { act, choose, click, fill, Page, pickRadio } from '../oracle-tools.ts';
import { half, people, type Family } from '../model.ts';
import { NOTE_WORDS } from '../vocabulary.ts';

export interface CartWorld {
  products: { name: string; price: number }[];
  option: { label: string; values: string[] };
  deliveries: string[];
}
export interface CartGoal {
  items: { name: string; choice: string }[];
  shipTo: string;
  address: string;
  delivery: string;
}

const STREETS = ['Harbour Road', 'Mill Lane', 'Station Street', 'Park Avenue', 'Church Walk', 'Bridge Row', 'Orchard Close', 'Quay Side'];
const DELIVERIES = ['Standard', 'Express', 'Collect in store'];

const capital = (w: string): string => w.charAt(0).toUpperCase() + w.slice(1);

export const cart: Family<CartWorld, CartGoal> = {
  id: 'cart',
  world(rng, frame) {
    const { catalog } = frame.domain;
    const names = new Set<string>();
    const count = 5 + rng.int(6);
    while (names.size < count) names.add(`${capital(rng.pick(half(NOTE_WORDS, frame.split)))} ${rng.pick(catalog.kinds)}`);
    return {
      products: [...names].map((name) => ({ name, price: 3 + rng.int(120) })),
      option: { label: catalog.option, values: [...catalog.values] },
      deliveries: DELIVERIES,
    };
  },
  goal(rng, frame, world) {
    const items = rng.sample(world.products, rng.chance(0.3) ? 2 : 1).map((p) => ({ name: p.name, choice: rng.pick(world.option.values) }));
    const shipTo = people(rng, frame.split, 1)[0] as string;
    const address = `${1 + rng.int(98)} ${rng.pick(half(STREETS, frame.split))}`;
    const delivery = rng.pick(world.deliveries);
    const what = items.map((i) => `the "${i.name}" (${world.option.label.toLowerCase()}: ${i.choice})`).join(' and ');
    return { instruction: `Buy ${what}, shipped to ${shipTo} at ${address} by ${delivery.toLowerCase()} delivery.`, goal: { items, shipTo, address, delivery } };
  },
  oracle(data) {
    const { world, goal } = data;
    const added = new Set<string>();
    return (observation) => {
      const page = new Page(observation);
      const [title = '', step = ''] = page.headings();
      const cartButton = page.where((name) => name.startsWith('Cart ('));
      const pending = goal.items.find((i) => !added.has(i.name));
      if (title === 'Checkout' && step === 'Shipping') {
        return fill(page, 'Full name', goal.shipTo) ?? fill(page, 'Address', goal.address) ?? pickRadio(page, goal.delivery) ?? click(page, 'Continue');
      }
      if (title === 'Checkout') return click(page, 'Place order');
      if (title === 'Cart') return click(page, 'Checkout');
      const product = goal.items.find((i) => i.name === title);
      if (product && pending === product) {
        const chosen = choose(page, world.option.label, product.choice);
        if (chosen !== null) return chosen;
        added.add(product.name);
        return click(page, 'Add to cart');
      }
      if (!pending) return act(cartButton);
      if (title !== 'Shop') return click(page, 'Back to the shop');
      return click(page, pending.name);
    };
  },
};
