/**
 * The household's teacher annotations (see `../explain.ts`): after an operation has been applied,
 * one or two sentences on what it did and, where the goal makes it matter, why the reward is what
 * it is. Reads the household and the goal; changes nothing.
 */
import { listNames, quote } from '../explain.ts';
import { receptacleType } from './catalog.ts';
import type { HomeGoal } from './goal.ts';
import { MIDDLE, type Household, type Op } from './household.ts';

const TRANSFORMED: Readonly<Record<'heat' | 'cool' | 'clean', { did: string; state: 'hot' | 'cool' | 'clean'; how: string }>> = {
  heat: { did: 'heated', state: 'hot', how: 'with' },
  cool: { did: 'cooled', state: 'cool', how: 'with' },
  clean: { did: 'cleaned', state: 'clean', how: 'in' },
};

/** The state a task type asks the placed object to be in, if any. */
function wantedState(goal: HomeGoal): 'hot' | 'cool' | 'clean' | null {
  if (goal.type === 'pick_heat_then_place') return 'hot';
  if (goal.type === 'pick_cool_then_place') return 'cool';
  if (goal.type === 'pick_clean_then_place') return 'clean';
  return null;
}

function hasState(h: Household, obj: number, state: 'hot' | 'cool' | 'clean'): boolean {
  return state === 'hot' ? h.isHot(obj) : state === 'cool' ? h.isCool(obj) : h.isClean(obj);
}

function rec(h: Household, i: number): { name: string; type: string; openable: boolean; preposition: 'in' | 'on' } {
  return h.world.layout.receptacles[i] as { name: string; type: string; openable: boolean; preposition: 'in' | 'on' };
}

function objType(h: Household, obj: number): string {
  return (h.world.objects[obj] as { type: string }).type;
}

/** The goal's text as a quotation: without its final period. */
function taskQuote(goalText: string): string {
  return `"${goalText.replace(/\.$/, '')}"`;
}

/** What can be seen in or on a receptacle now, as the second half of a sentence. */
function contents(h: Household, i: number): string {
  const r = rec(h, i);
  if (r.openable && !h.isOpen(i)) return 'it is closed, so nothing inside is visible';
  const names = h.contentsOf(i).map((o) => h.objName(o));
  if (r.openable) return names.length > 0 ? `it is open and holds ${listNames(names)}` : 'it is open and empty';
  return names.length > 0 ? `${r.preposition} it you see ${listNames(names)}` : `there is nothing ${r.preposition} it`;
}

function objectStates(h: Household, obj: number): string {
  const o = h.world.objects[obj] as { toggleable: boolean };
  if (o.toggleable) return h.isOn(obj) ? 'it is on' : 'it is off';
  const states = [h.isClean(obj) && 'clean', h.isHot(obj) && 'hot', h.isCool(obj) && 'cool'].filter((s): s is string => s !== false);
  return states.length > 0 ? `it is ${listNames(states)}` : 'there is nothing special about it';
}

/** A command the household did not accept: the step changes nothing. */
export function notApplicable(action: string): string {
  return `Nothing happens: ${quote(action)} does not apply here, so the reward is 0.`;
}

/** Why a put that did not reach the goal earns nothing, when the put was about the goal's object. */
function putShortfall(h: Household, obj: number, at: number, goal: HomeGoal): string {
  if (goal.type === 'look_at_obj_in_light' || goal.target === null || objType(h, obj) !== goal.object) return '';
  if (rec(h, at).type !== goal.target) {
    return ` The task needs it ${receptacleType(goal.target).preposition} a ${goal.target}, so the reward is 0.`;
  }
  const state = wantedState(goal);
  if (state !== null && !hasState(h, obj, state)) return ` The task needs it ${state} first, so the reward is 0.`;
  if (goal.type === 'pick_two_obj_and_place') return ` The task needs a second ${goal.object} there too, so the reward is 0.`;
  return '';
}

/** Why turning on a lamp did not finish a look task. */
function lampShortfall(h: Household, lamp: number, goal: HomeGoal): string {
  if (goal.type !== 'look_at_obj_in_light') return '';
  if (objType(h, lamp) !== goal.lamp) return ` The task asks for the ${goal.lamp ?? 'lamp'}, so the reward is 0.`;
  return ` The task needs you to hold a ${goal.object} here, so the reward is 0.`;
}

/**
 * The explanation of an applied operation. `won` says the goal was reached by it: the sentence
 * then names the task and the reward of 1.
 */
export function explainOp(h: Household, op: Op, goal: HomeGoal, goalText: string, won: boolean): string {
  const completes = `completes the task ${taskQuote(goalText)}, so the reward is 1.`;
  let text: string;
  let shortfall = '';
  switch (op.kind) {
    case 'goto':
      text = `You went to ${h.recName(op.rec)}; ${contents(h, op.rec)}.`;
      break;
    case 'open': {
      const names = h.contentsOf(op.rec).map((o) => h.objName(o));
      text = `You opened ${h.recName(op.rec)}; ${names.length > 0 ? `inside you see ${listNames(names)}` : 'it is empty'}.`;
      break;
    }
    case 'close':
      text = `You closed ${h.recName(op.rec)}, so its contents are hidden again.`;
      break;
    case 'take':
      text = `You took ${h.objName(op.obj)} from ${h.recName(op.rec)} and now hold it.`;
      break;
    case 'put': {
      const where = `${rec(h, op.rec).preposition} ${h.recName(op.rec)}`;
      if (won) return `The ${h.objName(op.obj)} was put ${where}, which ${completes}`;
      text = `You put ${h.objName(op.obj)} ${where} and hold nothing now.`;
      shortfall = putShortfall(h, op.obj, op.rec, goal);
      break;
    }
    case 'heat':
    case 'cool':
    case 'clean': {
      const t = TRANSFORMED[op.kind];
      text = `You ${t.did} ${h.objName(op.obj)} ${t.how} ${h.recName(op.rec)}; it is now ${t.state}.`;
      if (!won && wantedState(goal) === t.state && objType(h, op.obj) === goal.object && goal.target !== null) {
        shortfall = ` It still has to be put ${receptacleType(goal.target).preposition} a ${goal.target}, so the reward is 0.`;
      }
      break;
    }
    case 'use':
      text = `You turned on ${h.objName(op.obj)}.`;
      if (!won) shortfall = lampShortfall(h, op.obj, goal);
      break;
    case 'examine-receptacle':
      text = `You examined ${h.recName(op.rec)}; ${contents(h, op.rec)}.`;
      break;
    case 'examine-object':
      text = `You examined ${h.objName(op.obj)}; ${objectStates(h, op.obj)}.`;
      break;
    case 'inventory':
      text = `You checked what you carry: ${h.holding < 0 ? 'nothing' : h.objName(h.holding)}.`;
      break;
    case 'look':
      text = `You looked around; you are ${h.location === MIDDLE ? 'in the middle of the room' : `at ${h.recName(h.location)}`} and nothing changes.`;
      break;
  }
  if (won) return `${text} This ${completes}`;
  return text + shortfall;
}
