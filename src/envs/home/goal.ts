/**
 * The goal a home task carries in `Task.goal`: a plain JSON object holding everything needed to
 * rebuild the world and judge success. The world is a pure function of it (`world.ts`), which is what
 * lets the oracle plan without peeking into a running environment.
 */
import { UsageError } from '../../core/errors.ts';
import type { Task } from '../../core/types.ts';
import { LAMP_TYPES, OBJECT_TYPES, RECEPTACLE_TYPES } from './catalog.ts';

/** ALFWorld's six task types, under ALFWorld's names. */
export type TaskType =
  | 'pick_and_place'
  | 'look_at_obj_in_light'
  | 'pick_clean_then_place'
  | 'pick_heat_then_place'
  | 'pick_cool_then_place'
  | 'pick_two_obj_and_place';

export const TASK_TYPES: readonly TaskType[] = [
  'pick_and_place',
  'look_at_obj_in_light',
  'pick_clean_then_place',
  'pick_heat_then_place',
  'pick_cool_then_place',
  'pick_two_obj_and_place',
];

export interface HomeGoal {
  /** Layout seed: a non-negative integer; the room kind is `ROOM_KINDS[layout % 4]`. */
  layout: number;
  /** Seed of the object placement within the layout (uint32). */
  placement: number;
  type: TaskType;
  /** Object type to act on (`mug`). */
  object: string;
  /** Receptacle type to place into; null for look tasks. */
  target: string | null;
  /** Lamp type to look under (`desklamp`); null for all but look tasks. */
  lamp: string | null;
  /** Which of ALFWorld's two goal phrasings the instruction uses. */
  template: 0 | 1;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Validate an untrusted `Task.goal` (it may come from a file or another thread). */
export function parseGoal(value: unknown): HomeGoal {
  const fail = (why: string): never => {
    throw new UsageError(`not a home task goal: ${why}; use a task from the home spec's tasks(split)`);
  };
  if (!isRecord(value)) return fail('goal is missing or not an object');
  const { layout, placement, type, object, target, lamp, template } = value;
  if (typeof layout !== 'number' || !Number.isInteger(layout) || layout < 0) return fail('layout must be an integer >= 0');
  if (typeof placement !== 'number' || !Number.isInteger(placement) || placement < 0 || placement >= 2 ** 32) {
    return fail('placement must be a uint32');
  }
  if (typeof type !== 'string' || !(TASK_TYPES as readonly string[]).includes(type)) return fail(`unknown task type ${String(type)}`);
  if (typeof object !== 'string' || !OBJECT_TYPES.has(object)) return fail(`unknown object type ${String(object)}`);
  const look = type === 'look_at_obj_in_light';
  if (look) {
    if (target !== null) return fail('a look task has no target');
    if (typeof lamp !== 'string' || !LAMP_TYPES.includes(lamp)) return fail(`unknown lamp type ${String(lamp)}`);
  } else {
    if (typeof target !== 'string' || !RECEPTACLE_TYPES.has(target)) return fail(`unknown target type ${String(target)}`);
    if (lamp !== null) return fail('only look tasks name a lamp');
  }
  if (template !== 0 && template !== 1) return fail('template must be 0 or 1');
  return { layout, placement, type: type as TaskType, object, target: target as string | null, lamp: lamp as string | null, template };
}

export function taskGoal(task: Task): HomeGoal {
  if (task.env !== 'home') throw new UsageError(`task ${task.id} is for env "${task.env}", not "home"`);
  return parseGoal(task.goal);
}

/** Identity of a goal up to object placement: two tasks with equal keys ask for the same thing in the
 * same layout. Splits are kept disjoint on it. */
export function goalKey(goal: HomeGoal): string {
  return `${goal.layout}|${goal.type}|${goal.object}|${goal.target ?? ''}|${goal.lamp ?? ''}`;
}

/** How many objects of the goal type the task needs at once. */
export function neededCount(goal: HomeGoal): 1 | 2 {
  return goal.type === 'pick_two_obj_and_place' ? 2 : 1;
}

/** ALFWorld's two phrasings per task type (alfworld/gen goal templates). */
export const TEMPLATES: Readonly<Record<TaskType, readonly [string, string]>> = {
  pick_and_place: ['put a {obj} in {recep}.', 'put some {obj} on {recep}.'],
  look_at_obj_in_light: ['look at {obj} under the {lamp}.', 'examine the {obj} with the {lamp}.'],
  pick_clean_then_place: ['put a clean {obj} in {recep}.', 'clean some {obj} and put it in {recep}.'],
  pick_heat_then_place: ['put a hot {obj} in {recep}.', 'heat some {obj} and put it in {recep}.'],
  pick_cool_then_place: ['put a cool {obj} in {recep}.', 'cool some {obj} and put it in {recep}.'],
  pick_two_obj_and_place: ['put two {obj} in {recep}.', 'find two {obj} and put them in {recep}.'],
};

/** The instruction of a goal, in ALFWorld's words. */
export function goalText(goal: HomeGoal): string {
  return TEMPLATES[goal.type][goal.template]
    .replace('{obj}', goal.object)
    .replace('{recep}', goal.target ?? '')
    .replace('{lamp}', goal.lamp ?? '');
}
