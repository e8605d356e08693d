import { describe, expect, it } from 'vitest';
import { Rng } from '../../../src/core/rng.ts';
import { parseState } from '../../../src/core/state.ts';
import type { Task } from '../../../src/core/types.ts';
import { runEpisode } from '../../../src/envs/episode.ts';
import { goalKey, type HomeGoal } from '../../../src/envs/home/goal.ts';
import { envSpec } from '../../../src/envs/registry.ts';
import type { ShopGoal } from '../../../src/envs/shop/goal.ts';
import { parseInstruction } from '../../../src/envs/shop/variation.ts';
import { BufferTaskGenerator } from '../../../src/curriculum/generator.ts';
import { isSyntheticOnly, MAX_INSTRUCTION_CHARS, VARIATION_DIRECTIONS, type VariationDirection } from '../../../src/envs/variation.ts';

/** Variations of the first `n` train tasks, each direction in turn. */
function variations(env: string, n: number, seed = 1): { parent: Task; direction: VariationDirection; child: Task | null }[] {
  const spec = envSpec(env);
  const tasks = spec.tasks('train');
  const rng = new Rng(seed);
  return tasks.slice(0, n).map((parent, i) => {
    const direction = VARIATION_DIRECTIONS[i % 3] as VariationDirection;
    return { parent, direction, child: spec.variation.vary(parent, tasks, direction, rng) };
  });
}

describe.each(['shop', 'home'])('%s task variation', (env) => {
  const spec = envSpec(env);
  const made = variations(env, 150);

  it('never produces an empty, overlong or unreadable task, and marks each generated with its parent', () => {
    const children = made.filter((m) => m.child !== null);
    expect(children.length).toBeGreaterThan(100);
    for (const { parent, child } of children) {
      const t = child as Task;
      expect(t.instruction.trim().length).toBeGreaterThan(10);
      expect(t.instruction.length).toBeLessThanOrEqual(MAX_INSTRUCTION_CHARS);
      // A new task: new text, or (home re-hiding the objects) the same text in a new world.
      expect(t.instruction !== parent.instruction || JSON.stringify(t.goal) !== JSON.stringify(parent.goal)).toBe(true);
      expect(t).toMatchObject({ env, origin: 'generated', parentId: parent.id });
      expect(Number.isFinite(t.difficulty)).toBe(true);
      expect(t.id).toMatch(new RegExp(`^${env}-gen-`));
      // The text reads as one of the environment's own instructions, whether or not a real goal backs it.
      if (t.instruction !== parent.instruction) expect(spec.variation.ground(t.instruction, parent)).not.toBeNull();
    }
  });

  it('moves difficulty the way it was asked, on average', () => {
    const delta = (d: VariationDirection) => {
      const ds = made.filter((m) => m.direction === d && m.child).map((m) => (m.child as Task).difficulty - m.parent.difficulty);
      return ds.reduce((a, x) => a + x, 0) / ds.length;
    };
    expect(delta('harder')).toBeGreaterThan(0.3);
    expect(delta('easier')).toBeLessThan(-0.3);
  });

  it('plays every variation with a real goal in the real environment, where the oracle solves it', async () => {
    const real = made.filter((m) => m.child && !isSyntheticOnly(m.child)).slice(0, 25);
    expect(real.length).toBe(25);
    const envInstance = spec.createEnv();
    let won = 0;
    for (const { child } of real) {
      const first = await envInstance.reset(child as Task);
      expect(first.text).toContain((child as Task).instruction);
      expect(() => parseState(first.text)).not.toThrow();
      const record = await runEpisode(spec.createEnv(), spec.createOracle(), child as Task);
      if (record.won) won++;
    }
    expect(won / real.length).toBeGreaterThanOrEqual(0.9);
  });

  it('is deterministic given the seed', () => {
    const again = variations(env, 30);
    expect(again.map((m) => m.child?.id ?? null)).toEqual(made.slice(0, 30).map((m) => m.child?.id ?? null));
  });
});

describe('shop variation', () => {
  const spec = envSpec('shop');
  const made = variations('shop', 300);
  const heldOut = new Set(spec.tasks('test').map((t) => t.instruction));

  it('never generates a held-out instruction, and names a train-split product that satisfies a real goal', () => {
    for (const { child } of made) if (child) expect(heldOut.has(child.instruction)).toBe(false);
    const train = new Set(spec.tasks('train').map((t) => (t.goal as ShopGoal).productId));
    const real = made.filter((m) => m.child?.goal).map((m) => m.child?.goal as ShopGoal);
    // Every real goal names a product some train task is written for, or another train-split product.
    expect(real.every((g) => typeof g.productId === 'string' && g.productId.length > 0)).toBe(true);
    expect(real.some((g) => train.has(g.productId))).toBe(true);
  });

  it('marks a variation no product satisfies as synthetic-only, and still reads its text', () => {
    const synthetic = made.filter((m) => m.child && isSyntheticOnly(m.child));
    expect(synthetic.length).toBeGreaterThan(0);
    for (const { child, parent } of synthetic) {
      expect(child?.goal).toBeUndefined();
      expect(parseInstruction(child?.instruction ?? '', (parent.goal as ShopGoal).category)).not.toBeNull();
    }
  });

  it('grounds an instruction in its own form to the goal it states, and refuses text that is no task', () => {
    const parent = spec.tasks('train')[3] as Task;
    const goal = parent.goal as ShopGoal;
    const rewritten = parent.instruction.replace(/price lower than (\d+)\.00/, (_, p) => `price lower than ${Number(p) + 10}.00`);
    const grounded = spec.variation.ground(rewritten, parent);
    expect(grounded?.goal).toMatchObject({ attributes: goal.attributes, options: goal.options, priceUpper: goal.priceUpper + 10 });
    expect(spec.variation.ground('buy a spaceship that flies to mars', parent)).toMatchObject({ origin: 'generated', parentId: parent.id });
    expect(spec.variation.ground('buy a spaceship that flies to mars', parent)?.goal).toBeUndefined();
    expect(spec.variation.ground('', parent)).toBeNull();
    expect(spec.variation.ground('x'.repeat(MAX_INSTRUCTION_CHARS + 1), parent)).toBeNull();
    expect(spec.variation.ground(parent.instruction, parent)).toBeNull();
    expect(spec.variation.ground((spec.tasks('test')[0] as Task).instruction, parent)).toBeNull();
  });
});

describe('home variation', () => {
  const spec = envSpec('home');
  const made = variations('home', 300);

  it('keeps the parent layout and never generates a held-out goal', () => {
    const heldOut = new Set([...spec.tasks('valid-seen'), ...spec.tasks('valid-unseen')].map((t) => goalKey(t.goal as HomeGoal)));
    for (const { parent, child } of made) {
      if (!child) continue;
      expect(child.goal).toBeDefined();
      expect((child.goal as HomeGoal).layout).toBe((parent.goal as HomeGoal).layout);
      expect(heldOut.has(goalKey(child.goal as HomeGoal))).toBe(false);
    }
  });

  it('keeps the task type when asked for variations of the same kind, and still makes them in every direction', async () => {
    const tasks = spec.tasks('train').slice(0, 120);
    const rng = new Rng(5);
    const kept = tasks.map((parent, i) => {
      const direction = VARIATION_DIRECTIONS[i % 3] as VariationDirection;
      return { parent, direction, child: spec.variation.vary(parent, spec.tasks('train'), direction, rng, { sameKind: true }) };
    });
    // Harder and easier are then only re-hiding the objects, which a room without doors cannot do;
    // the generator falls back to another direction (below).
    for (const direction of VARIATION_DIRECTIONS) expect(kept.filter((k) => k.direction === direction && k.child).length).toBeGreaterThan(5);
    for (const { parent, child } of kept) if (child) expect((child.goal as HomeGoal).type).toBe((parent.goal as HomeGoal).type);
    const generator = new BufferTaskGenerator(spec, spec.tasks('train'), { sameKind: true });
    const requests = tasks.map((parent, i) => ({ parent, successRate: [0.1, 0.5, 0.9][i % 3] as number, variance: 0.1 }));
    const children = await generator.generate(requests, new Rng(6));
    expect(children.length).toBeGreaterThan(0.9 * requests.length);
    for (const child of children) expect((child.goal as HomeGoal).type).toBe((tasks.find((t) => t.id === child.parentId)?.goal as HomeGoal).type);
    // Without the option some harder and easier variations change the type.
    expect(made.some((m) => m.child && (m.child.goal as HomeGoal).type !== (m.parent.goal as HomeGoal).type)).toBe(true);
  });

  it('grounds an ALFWorld phrasing in the parent room, and marks what the room cannot host synthetic-only', () => {
    const parent = spec.tasks('train').find((t) => (t.goal as HomeGoal).type === 'pick_and_place') as Task;
    const goal = parent.goal as HomeGoal;
    const other = made.find((m) => m.parent.id === parent.id)?.child;
    if (other) expect(spec.variation.ground(other.instruction, parent)?.goal).toBeDefined();
    const impossible = spec.variation.ground('put a dragon in volcano.', parent);
    expect(impossible).toMatchObject({ origin: 'generated', parentId: parent.id });
    expect(impossible?.goal).toBeUndefined();
    expect(spec.variation.ground(`put a ${goal.object} in ${goal.target}.`, parent)?.goal ?? null).not.toEqual(parent.goal);
  });
});
