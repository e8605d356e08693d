/**
 * Layouts and worlds, both pure functions of seeds. A layout (room kind, numbered receptacles,
 * lamps) comes from a layout seed alone, so splits can hold whole layouts out; a world (numbered
 * objects placed in or on receptacles) comes from a goal, so the oracle can rebuild exactly what the
 * environment built.
 */
import { UsageError } from '../../core/errors.ts';
import { Rng } from '../../core/rng.ts';
import { objectType, receptacleType, ROOM_KINDS, ROOMS, type RoomKind } from './catalog.ts';
import { neededCount, type HomeGoal } from './goal.ts';

export interface Receptacle {
  /** `cabinet 3`: what commands name. */
  readonly name: string;
  readonly type: string;
  readonly openable: boolean;
  readonly preposition: 'in' | 'on';
}

export interface LampPlacement {
  readonly type: string;
  /** Index into `Layout.receptacles` of the receptacle the lamp stands on or next to. */
  readonly host: number;
}

export interface Layout {
  readonly seed: number;
  readonly kind: RoomKind;
  /** Sorted by type, then number: the order ALFWorld's room description lists them in. */
  readonly receptacles: readonly Receptacle[];
  readonly lamps: readonly LampPlacement[];
}

export interface WorldObject {
  /** `mug 2`: what commands name. */
  readonly name: string;
  readonly type: string;
  readonly pickupable: boolean;
  readonly toggleable: boolean;
  readonly cleanable: boolean;
  readonly heatable: boolean;
  readonly coolable: boolean;
}

export interface World {
  readonly layout: Layout;
  readonly objects: readonly WorldObject[];
  /** Index into `layout.receptacles` of where each object starts (parallel to `objects`). */
  readonly hosts: readonly number[];
}

export function layoutKind(seed: number): RoomKind {
  return ROOM_KINDS[seed % ROOM_KINDS.length] as RoomKind;
}

function generateLayout(seed: number): Layout {
  const kind = layoutKind(seed);
  const rng = new Rng(`home-layout:${seed}`);
  const receptacles: Receptacle[] = [];
  // Every spec consumes the same draws whatever it yields, so a layout does not shift when the
  // catalog's chances are tuned for a single receptacle type.
  for (const spec of ROOMS[kind].receptacles) {
    const present = rng.next() < spec.chance;
    const count = rng.range(spec.min, spec.max);
    if (!present) continue;
    const { openable, preposition } = receptacleType(spec.type);
    for (let i = 1; i <= count; i++) receptacles.push({ name: `${spec.type} ${i}`, type: spec.type, openable, preposition });
  }
  const lamps: LampPlacement[] = [];
  for (const spec of ROOMS[kind].lamps) {
    const present = rng.next() < spec.chance;
    const hosts = receptacles.flatMap((rec, i) => (spec.hosts.includes(rec.type) && !rec.openable ? [i] : []));
    if (!present || hosts.length === 0) continue;
    lamps.push({ type: spec.type, host: rng.pick(hosts) });
  }
  return Object.freeze({ seed, kind, receptacles: Object.freeze(receptacles), lamps: Object.freeze(lamps) });
}

const layoutCache = new Map<number, Layout>();

/** The layout of a seed (cached: layouts are immutable and shared by many tasks). */
export function getLayout(seed: number): Layout {
  if (!Number.isInteger(seed) || seed < 0) throw new UsageError(`layout seed must be an integer >= 0, got ${seed}`);
  let layout = layoutCache.get(seed);
  if (!layout) {
    layout = generateLayout(seed);
    layoutCache.set(seed, layout);
  }
  return layout;
}

const hostCache = new WeakMap<Layout, Map<string, readonly number[]>>();

/**
 * Receptacles of the layout where an object type may start. Objects of the goal's type never start
 * in a receptacle of the target type, so no goal is reached before the first step. Memoised per
 * layout: task generation asks the same question thousands of times.
 */
export function startHosts(layout: Layout, type: string, excludeType: string | null): readonly number[] {
  let perLayout = hostCache.get(layout);
  if (!perLayout) {
    perLayout = new Map();
    hostCache.set(layout, perLayout);
  }
  const key = `${type}|${excludeType ?? ''}`;
  let hosts = perLayout.get(key);
  if (!hosts) {
    const allowed = objectType(type).receptacles;
    const out: number[] = [];
    layout.receptacles.forEach((rec, i) => {
      if (rec.type !== excludeType && allowed.includes(rec.type)) out.push(i);
    });
    hosts = Object.freeze(out);
    perLayout.set(key, hosts);
  }
  return hosts;
}

const placeableCache = new WeakMap<Layout, readonly string[]>();

/** Object types of the layout's room kind that have somewhere to lie in this layout. */
export function placeableTypes(layout: Layout): readonly string[] {
  let types = placeableCache.get(layout);
  if (!types) {
    types = Object.freeze(ROOMS[layout.kind].objects.filter((t) => startHosts(layout, t, null).length > 0));
    placeableCache.set(layout, types);
  }
  return types;
}

/** How many distractor object types a world holds besides the goal's. */
const DISTRACTOR_TYPES = { min: 4, max: 7 } as const;
const MAX_PER_TYPE = 3;

/** Build the starting world of a goal. Throws `UsageError` when the goal cannot be realised. */
export function buildWorld(goal: HomeGoal): World {
  const layout = getLayout(goal.layout);
  const goalHosts = startHosts(layout, goal.object, goal.target);
  if (goalHosts.length === 0) {
    throw new UsageError(`no receptacle in layout ${goal.layout} can hold a ${goal.object} outside the target`);
  }
  const rng = new Rng(`home-world:${goal.layout}:${goal.placement}`);
  const distractorTypes = placeableTypes(layout).filter((t) => t !== goal.object);
  const chosen = rng.sample(distractorTypes, rng.range(DISTRACTOR_TYPES.min, DISTRACTOR_TYPES.max));
  // Shuffled so the goal's objects are not always listed first where they lie.
  const types = rng.shuffle([goal.object, ...chosen]);

  const objects: WorldObject[] = [];
  const hosts: number[] = [];
  for (const type of types) {
    const isGoal = type === goal.object;
    const count = rng.range(isGoal ? neededCount(goal) : 1, MAX_PER_TYPE);
    const where = isGoal ? goalHosts : startHosts(layout, type, null);
    const spec = objectType(type);
    for (let i = 1; i <= count; i++) {
      objects.push({
        name: `${type} ${i}`,
        type,
        pickupable: true,
        toggleable: false,
        cleanable: spec.cleanable,
        heatable: spec.heatable,
        coolable: spec.coolable,
      });
      hosts.push(rng.pick(where));
    }
  }
  for (const lamp of layout.lamps) {
    objects.push({
      name: `${lamp.type} 1`,
      type: lamp.type,
      pickupable: false,
      toggleable: true,
      cleanable: false,
      heatable: false,
      coolable: false,
    });
    hosts.push(lamp.host);
  }
  return { layout, objects, hosts };
}
