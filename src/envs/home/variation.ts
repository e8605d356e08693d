/**
 * Home task variation. Harder turns a plain pick-and-place into a clean, heat, cool or two-object
 * task with the same object, or re-places the objects so more of them hide behind doors; easier does
 * the reverse (with `sameKind`, only the re-placing: the task type stays); sideways swaps the object or the target for one a sibling task uses (or, failing that,
 * any the room can host). Every variation is a goal of the parent's own layout, checked feasible and
 * not already solved, so it can always be played in the real environment. Goals of the held-out
 * splits are never generated.
 */
import type { Rng } from '../../core/rng.ts';
import type { Task } from '../../core/types.ts';
import { generatedTask, usableInstruction, type TaskVariation, type VariationDirection, type VaryOptions } from '../variation.ts';
import { goalKey, goalText, parseGoal, TASK_TYPES, TEMPLATES, type HomeGoal, type TaskType } from './goal.ts';
import { compileGoal, Household } from './household.ts';
import { difficultyOf, goalOptions, hiddenCount, homeTasks } from './tasks.ts';
import { buildWorld, getLayout } from './world.ts';

const TRANSFORMS: readonly TaskType[] = ['pick_clean_then_place', 'pick_heat_then_place', 'pick_cool_then_place', 'pick_two_obj_and_place'];
/** Placements tried when re-hiding objects. */
const PLACEMENT_TRIES = 12;

type Edit = (goal: HomeGoal, kin: readonly HomeGoal[], rng: Rng) => HomeGoal | null;

/** The goal with another type (same object), when the layout can host it. */
function retype(goal: HomeGoal, type: TaskType, rng: Rng): HomeGoal | null {
  const options = goalOptions(getLayout(goal.layout), type);
  const targets = options.get(goal.object);
  if (!targets) return null;
  if (type === 'look_at_obj_in_light') {
    const lamps = getLayout(goal.layout).lamps;
    return lamps.length > 0 ? { ...goal, type, target: null, lamp: rng.pick(lamps).type } : null;
  }
  const target = goal.target !== null && targets.includes(goal.target) ? goal.target : rng.pick(targets);
  return { ...goal, type, target, lamp: null };
}

/** The goal with its objects re-placed so that more (or fewer) hide behind closed doors. */
function rehide(goal: HomeGoal, more: boolean, rng: Rng): HomeGoal | null {
  const hidden = hiddenCount(buildWorld(goal), goal);
  for (let i = 0; i < PLACEMENT_TRIES; i++) {
    const moved = { ...goal, placement: rng.nextUint32() };
    const now = hiddenCount(buildWorld(moved), moved);
    if (more ? now > hidden : now < hidden) return moved;
  }
  return null;
}

/** Values of `field` that siblings of the same type use and this layout can host, else any it can. */
function swap(goal: HomeGoal, kin: readonly HomeGoal[], field: 'object' | 'target', rng: Rng): HomeGoal | null {
  const options = goalOptions(getLayout(goal.layout), goal.type);
  const feasible =
    field === 'object'
      ? [...options.keys()].filter((o) => o !== goal.object && (goal.target === null || (options.get(o) ?? []).includes(goal.target)))
      : (options.get(goal.object) ?? []).filter((t) => t !== goal.target);
  if (feasible.length === 0) return null;
  const fromKin = feasible.filter((v) => kin.some((k) => k.type === goal.type && k[field] === v));
  return { ...goal, [field]: rng.pick(fromKin.length > 0 ? fromKin : feasible) };
}

const retypeHarder: Edit = (g, _kin, rng) => (g.type === 'pick_and_place' ? retype(g, rng.pick(TRANSFORMS), rng) : null);
const retypeEasier: Edit = (g, _kin, rng) => (g.type !== 'pick_and_place' ? retype(g, 'pick_and_place', rng) : null);
/** The edits that change the task's type: left out when a variation must keep the task's kind. */
const CHANGES_KIND: ReadonlySet<Edit> = new Set([retypeHarder, retypeEasier]);

const EDITS: Readonly<Record<VariationDirection, readonly Edit[]>> = {
  harder: [retypeHarder, (g, _kin, rng) => rehide(g, true, rng)],
  easier: [retypeEasier, (g, _kin, rng) => rehide(g, false, rng)],
  sideways: [
    (g, kin, rng) => swap(g, kin, 'object', rng),
    (g, kin, rng) => (g.target !== null ? swap(g, kin, 'target', rng) : null),
  ],
};

export class HomeVariation implements TaskVariation {
  private heldOut: Set<string> | null = null;

  vary(task: Task, siblings: readonly Task[], direction: VariationDirection, rng: Rng, options: VaryOptions = {}): Task | null {
    const goal = goalOf(task);
    if (!goal) return null;
    const kin = siblings.map(goalOf).filter((g): g is HomeGoal => g !== null);
    const edits = options.sameKind ? EDITS[direction].filter((edit) => !CHANGES_KIND.has(edit)) : EDITS[direction];
    for (const edit of rng.shuffle(edits)) {
      const edited = edit(goal, kin, rng);
      if (!edited) continue;
      const made = this.realise(task, { ...edited, template: rng.int(2) as 0 | 1 });
      if (made) return made;
    }
    return null;
  }

  ground(instruction: string, parent: Task): Task | null {
    const goal = goalOf(parent);
    if (!usableInstruction(instruction) || !goal) return null;
    const text = instruction.trim().replace(/\s+/g, ' ').toLowerCase();
    if (text === parent.instruction) return null;
    const read = readInstruction(text);
    if (read) {
      const candidate: HomeGoal = { ...goal, ...read };
      const options = goalOptions(getLayout(goal.layout), candidate.type).get(candidate.object);
      const lampHere = candidate.lamp === null || getLayout(goal.layout).lamps.some((l) => l.type === candidate.lamp);
      const feasible = options !== undefined && (candidate.target === null || options.includes(candidate.target)) && lampHere;
      if (feasible) return this.realise(parent, candidate, text);
    }
    return generatedTask(parent, text, undefined, parent.difficulty);
  }

  /** The generated task for a goal: null when it is held out, the parent itself, or solved before the first step. */
  private realise(parent: Task, goal: HomeGoal, text: string = goalText(goal)): Task | null {
    this.heldOut ??= new Set([...homeTasks('valid-seen'), ...homeTasks('valid-unseen')].map((t) => goalKey(t.goal as HomeGoal)));
    if (this.heldOut.has(goalKey(goal))) return null;
    if (JSON.stringify(goal) === JSON.stringify(parent.goal)) return null;
    const world = buildWorld(goal);
    if (compileGoal(world, goal)(new Household(world))) return null;
    return generatedTask(parent, text, goal, difficultyOf(world, goal));
  }
}

function goalOf(task: Task): HomeGoal | null {
  try {
    return parseGoal(task.goal);
  } catch {
    return null;
  }
}

/** The type, object, target and lamp an instruction in one of ALFWorld's phrasings names. */
function readInstruction(text: string): Pick<HomeGoal, 'type' | 'object' | 'target' | 'lamp' | 'template'> | null {
  for (const type of TASK_TYPES) {
    for (const template of [0, 1] as const) {
      const pattern = TEMPLATES[type][template].replace('.', '\\.').replace(/\{(obj|recep|lamp)\}/g, '(?<$1>[a-z]+)');
      const m = new RegExp(`^${pattern}?$`).exec(text);
      if (!m?.groups) continue;
      const { obj, recep, lamp } = m.groups;
      if (!obj) continue;
      return { type, object: obj, target: recep ?? null, lamp: lamp ?? null, template };
    }
  }
  return null;
}
