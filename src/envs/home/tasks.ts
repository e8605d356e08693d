/**
 * The task splits, generated from fixed seeds the first time they are asked for and cached.
 *
 * Layout seeds 0..175 are for train and valid-seen; 176..199 (six of each room kind) are held out
 * for valid-unseen, as ALFWorld holds out whole scenes. valid-seen draws only layouts and object
 * types that train uses, and no goal of it (layout, task type, object, target, lamp) is a goal of
 * train; within a split no goal repeats either.
 *
 * Difficulty (read by the curriculum) = task-type base + hidden, where the base is
 *   pick_and_place 1, look_at_obj_in_light 2, clean/heat/cool 3, pick_two_obj_and_place 4
 * (the number of distinct sub-goals the agent must chain), and hidden is the least number of closed
 * receptacles the agent must open to collect the objects it needs (0..2: what it cannot see without
 * searching). So difficulty runs from 1 (a visible object to move) to 6 (two objects behind two doors).
 */
import { UsageError } from '../../core/errors.ts';
import { Rng } from '../../core/rng.ts';
import type { Task } from '../../core/types.ts';
import { CLEAN_APPLIANCE, COOL_APPLIANCE, HEAT_APPLIANCE, objectType, ROOMS } from './catalog.ts';
import { goalKey, goalText, neededCount, TASK_TYPES, type HomeGoal, type TaskType } from './goal.ts';
import { compileGoal, Household } from './household.ts';
import { buildWorld, getLayout, layoutKind, startHosts, type Layout, type World } from './world.ts';

export type HomeSplit = 'train' | 'valid-seen' | 'valid-unseen';

export const SPLIT_SIZES: Readonly<Record<HomeSplit, number>> = { train: 3500, 'valid-seen': 250, 'valid-unseen': 250 };
export const SPLIT_NAMES = Object.keys(SPLIT_SIZES) as HomeSplit[];

const LAYOUT_COUNT = 200;
const UNSEEN_FROM = 176;
export const SEEN_LAYOUTS: readonly number[] = Array.from({ length: UNSEEN_FROM }, (_, i) => i);
export const UNSEEN_LAYOUTS: readonly number[] = Array.from({ length: LAYOUT_COUNT - UNSEEN_FROM }, (_, i) => UNSEEN_FROM + i);

const TYPE_BASE: Readonly<Record<TaskType, number>> = {
  pick_and_place: 1,
  look_at_obj_in_light: 2,
  pick_clean_then_place: 3,
  pick_heat_then_place: 3,
  pick_cool_then_place: 3,
  pick_two_obj_and_place: 4,
};

/** The appliance a task type needs, and which receptacle type it must not also be the target. */
const APPLIANCE: Partial<Record<TaskType, { type: string; canBeTarget: boolean }>> = {
  pick_clean_then_place: { type: CLEAN_APPLIANCE, canBeTarget: false },
  pick_heat_then_place: { type: HEAT_APPLIANCE, canBeTarget: false },
  // ALFWorld does ask to "cool some apple and put it in fridge".
  pick_cool_then_place: { type: COOL_APPLIANCE, canBeTarget: true },
};

function hasType(layout: Layout, type: string): boolean {
  return layout.receptacles.some((r) => r.type === type);
}

function suits(type: TaskType, object: string): boolean {
  const spec = objectType(object);
  if (type === 'pick_clean_then_place') return spec.cleanable;
  if (type === 'pick_heat_then_place') return spec.heatable;
  if (type === 'pick_cool_then_place') return spec.coolable;
  return true;
}

/** Target receptacle types for an object in a layout: where it can go, minus the task's appliance
 * where that would make no sense, and only when it can also start somewhere else. */
function targetsFor(layout: Layout, type: TaskType, object: string): string[] {
  const appliance = APPLIANCE[type];
  const present = new Set(layout.receptacles.map((r) => r.type));
  return objectType(object).receptacles.filter(
    (t) =>
      present.has(t) &&
      !(appliance && !appliance.canBeTarget && t === appliance.type) &&
      startHosts(layout, object, t).length > 0,
  );
}

const optionCache = new Map<string, ReadonlyMap<string, readonly string[]>>();

/**
 * Object types a task type can use in a layout, each with its possible targets (empty for look
 * tasks, which need none). Memoised: generation asks about the same layouts thousands of times.
 */
export function goalOptions(layout: Layout, type: TaskType): ReadonlyMap<string, readonly string[]> {
  const key = `${layout.seed}|${type}`;
  let options = optionCache.get(key);
  if (!options) {
    const out = new Map<string, readonly string[]>();
    const appliance = APPLIANCE[type];
    const look = type === 'look_at_obj_in_light';
    const feasible = look ? layout.lamps.length > 0 : !appliance || hasType(layout, appliance.type);
    for (const object of feasible ? ROOMS[layout.kind].objects : []) {
      if (!suits(type, object)) continue;
      if (look) {
        if (startHosts(layout, object, null).length > 0) out.set(object, []);
      } else {
        const targets = targetsFor(layout, type, object);
        if (targets.length > 0) out.set(object, targets);
      }
    }
    options = out;
    optionCache.set(key, options);
  }
  return options;
}

/** A feasible goal of this type in this layout, or null when the layout cannot host one. */
function proposeGoal(layout: Layout, type: TaskType, rng: Rng, allowedObjects: ReadonlySet<string> | null): HomeGoal | null {
  const options = goalOptions(layout, type);
  const objects = [...options.keys()].filter((o) => allowedObjects === null || allowedObjects.has(o));
  if (objects.length === 0) return null;
  const object = rng.pick(objects);
  const look = type === 'look_at_obj_in_light';
  const lamp = look ? rng.pick(layout.lamps).type : null;
  const target = look ? null : rng.pick(options.get(object) as readonly string[]);
  return { layout: layout.seed, placement: rng.nextUint32(), type, object, target, lamp, template: rng.int(2) as 0 | 1 };
}

/** Least number of closed receptacles to open to gather `needed` objects of the goal's type. */
export function hiddenCount(world: World, goal: HomeGoal): number {
  let visible = 0;
  const perClosed = new Map<number, number>();
  world.objects.forEach((o, i) => {
    if (o.type !== goal.object) return;
    const host = world.hosts[i] as number;
    if ((world.layout.receptacles[host] as { openable: boolean }).openable) perClosed.set(host, (perClosed.get(host) ?? 0) + 1);
    else visible++;
  });
  let missing = neededCount(goal) - visible;
  let opened = 0;
  for (const n of [...perClosed.values()].sort((a, b) => b - a)) {
    if (missing <= 0) break;
    missing -= n;
    opened++;
  }
  return opened;
}

export function difficultyOf(world: World, goal: HomeGoal): number {
  return TYPE_BASE[goal.type] + hiddenCount(world, goal);
}

/** Types whose goals a room kind can host (look needs a lamp, transformations need appliances;
 * the per-layout check in `proposeGoal` does the rest). */
function roomSupports(layoutSeed: number, type: TaskType): boolean {
  const kind = layoutKind(layoutSeed);
  if (type === 'look_at_obj_in_light') return ROOMS[kind].lamps.length > 0;
  if (type === 'pick_heat_then_place' || type === 'pick_cool_then_place') return kind === 'kitchen';
  if (type === 'pick_clean_then_place') return kind === 'kitchen' || kind === 'bathroom';
  return true;
}

interface SplitPlan {
  layouts: readonly number[];
  excludeKeys: ReadonlySet<string>;
  allowedObjects: ReadonlySet<string> | null;
}

function generate(split: HomeSplit, plan: SplitPlan): Task[] {
  const size = SPLIT_SIZES[split];
  const rng = new Rng(`home-split:${split}`);
  const byType = new Map(TASK_TYPES.map((t) => [t, plan.layouts.filter((l) => roomSupports(l, t))]));
  const keys = new Set<string>();
  const tasks: Task[] = [];
  // Generous: infeasible draws are common only for look tasks in lamp-less layouts.
  const maxAttempts = size * 50;
  for (let attempt = 0; tasks.length < size; attempt++) {
    if (attempt >= maxAttempts) throw new Error(`home: could not generate ${size} ${split} tasks`);
    const type = rng.pick(TASK_TYPES);
    const layout = getLayout(rng.pick(byType.get(type) as number[]));
    const goal = proposeGoal(layout, type, rng, plan.allowedObjects);
    if (!goal) continue;
    const key = goalKey(goal);
    if (keys.has(key) || plan.excludeKeys.has(key)) continue;
    const world = buildWorld(goal);
    // Placement never puts the goal's objects in the target type, so this holds by construction;
    // checked anyway because a task solved before its first step would be a silent free reward.
    if (compileGoal(world, goal)(new Household(world))) continue;
    keys.add(key);
    const id = `home-${split}-${String(tasks.length).padStart(4, '0')}`;
    tasks.push(
      Object.freeze({
        id,
        env: 'home',
        instruction: goalText(goal),
        difficulty: difficultyOf(world, goal),
        origin: 'seed' as const,
        goal: Object.freeze(goal),
      }),
    );
  }
  return tasks;
}

const cache = new Map<HomeSplit, readonly Task[]>();

function isSplit(name: string): name is HomeSplit {
  return Object.hasOwn(SPLIT_SIZES, name);
}

/** The tasks of a split in a fixed order (generated once, then cached). */
export function homeTasks(split: string): readonly Task[] {
  if (!isSplit(split)) {
    throw new UsageError(`home has no split "${split}"; use one of ${SPLIT_NAMES.join(', ')}`);
  }
  const cached = cache.get(split);
  if (cached) return cached;
  let plan: SplitPlan;
  if (split === 'train') plan = { layouts: SEEN_LAYOUTS, excludeKeys: new Set(), allowedObjects: null };
  else if (split === 'valid-unseen') plan = { layouts: UNSEEN_LAYOUTS, excludeKeys: new Set(), allowedObjects: null };
  else {
    const train = homeTasks('train').map((t) => t.goal as HomeGoal);
    plan = {
      layouts: [...new Set(train.map((g) => g.layout))].sort((a, b) => a - b),
      excludeKeys: new Set(train.map(goalKey)),
      allowedObjects: new Set(train.map((g) => g.object)),
    };
  }
  const tasks = Object.freeze(generate(split, plan));
  cache.set(split, tasks);
  return tasks;
}
