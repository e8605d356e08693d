/**
 * The household as an `Env`: turns command strings into the household's operations, renders the
 * abstract state, and keeps the episode's bookkeeping (sparse reward, step limit, done).
 *
 * Commands are matched case-insensitively with whitespace collapsed, against the admissible list
 * only: anything else (malformed, unknown target, physically impossible here) is invalid, leaves the
 * observation exactly as it was, and still counts as a step, as in ALFWorld. Every step says what it
 * did and why its reward is what it is in `info.explanation` (see `explain.ts`).
 */
import { matchKey } from '../../core/actions.ts';
import { EnvStateError } from '../../core/errors.ts';
import { joinFields, renderState, type StateElement } from '../../core/state.ts';
import type { Env, Observation, StepResult, Task } from '../../core/types.ts';
import { finish } from '../explain.ts';
import { ROOM_NAMES } from './catalog.ts';
import { explainOp, notApplicable } from './explain.ts';
import * as say from './feedback.ts';
import { goalText, taskGoal, type HomeGoal } from './goal.ts';
import { compileGoal, Household, MIDDLE, type Op } from './household.ts';
import { buildWorld } from './world.ts';

export const HOME_MAX_STEPS = 50;

/** Longer than any admissible command by far; longer input is rejected before any regex runs. */
const MAX_COMMAND_LENGTH = 256;

const MOVE = /^move (.+) to (.+)$/;
const PUT = /^put (.+?) (?:in\/on|in|on) (.+)$/;

interface Command {
  /** The admissible-list spelling (`put mug 1 in/on countertop 1`). */
  key: string;
  /** Said as newer ALFWorld's `move … to …`, which gets newer ALFWorld's feedback. */
  move: boolean;
}

/** Normalise a command to the spelling the admissible list uses; null when it cannot be one. */
export function normalizeCommand(action: unknown): Command | null {
  if (typeof action !== 'string' || action.length === 0 || action.length > MAX_COMMAND_LENGTH) return null;
  const text = matchKey(action);
  if (text === '') return null;
  const move = MOVE.exec(text);
  if (move) return { key: `put ${move[1] as string} in/on ${move[2] as string}`, move: true };
  const put = PUT.exec(text);
  if (put) return { key: `put ${put[1] as string} in/on ${put[2] as string}`, move: false };
  return { key: text, move: false };
}

interface Episode {
  household: Household;
  reached: (h: Household) => boolean;
  room: string;
  /** The goal itself, which the step explanations read, and its text. */
  homeGoal: HomeGoal;
  goal: string;
  steps: number;
  done: boolean;
  observation: Observation;
  ops: Map<string, Op>;
}

export class HomeEnv implements Env {
  readonly name = 'home';
  private episode: Episode | null = null;

  /** Builds the task's world (a pure function of `task.goal`). Throws `UsageError` for a task that is not a home task. */
  async reset(task: Task): Promise<Observation> {
    const goal = taskGoal(task);
    const world = buildWorld(goal);
    const household = new Household(world);
    const episode: Episode = {
      household,
      reached: compileGoal(world, goal),
      room: ROOM_NAMES[world.layout.kind],
      homeGoal: goal,
      goal: goalText(goal),
      steps: 0,
      done: false,
      observation: { text: '', actions: [] },
      ops: new Map(),
    };
    this.episode = episode;
    this.observe(episode, say.intro(household.look(), episode.goal));
    return copy(episode.observation);
  }

  async step(action: string): Promise<StepResult> {
    const ep = this.episode;
    if (!ep) throw new EnvStateError('step() before reset(): call reset(task) first');
    if (ep.done) throw new EnvStateError('step() after the episode ended: call reset(task) to start a new one');
    ep.steps++;
    const command = normalizeCommand(action);
    const op = command ? ep.ops.get(command.key) : undefined;
    let feedback: string = say.NOTHING_HAPPENS;
    let won = false;
    if (op) {
      feedback = ep.household.apply(op, command?.move ?? false);
      this.observe(ep, feedback);
      won = ep.reached(ep.household);
    }
    ep.done = won;
    const explanation = finish(op ? explainOp(ep.household, op, ep.homeGoal, ep.goal, won) : notApplicable(action), false);
    return {
      observation: copy(ep.observation),
      reward: won ? 1 : 0,
      done: ep.done,
      info: { valid: op !== undefined, won, truncated: false, feedback, steps: ep.steps, explanation },
    };
  }

  /** Recompute the rendered state and the admissible commands after a change. */
  private observe(ep: Episode, feedback: string): void {
    const h = ep.household;
    const admissible = h.admissible();
    ep.ops = new Map(admissible);
    ep.observation = {
      text: renderState({
        header: [
          ['room', ep.room],
          ['task', ep.goal],
          ['location', h.location === MIDDLE ? 'middle of the room' : h.recName(h.location)],
          ['holding', h.holding < 0 ? 'nothing' : h.objName(h.holding)],
          ['feedback', feedback],
        ],
        elements: elements(h),
      }),
      actions: admissible.map(([command]) => command),
    };
  }
}

function copy(observation: Observation): Observation {
  return { text: observation.text, actions: observation.actions.slice() };
}

function states(h: Household, obj: number): string[] {
  const out: string[] = [];
  if (h.isClean(obj)) out.push('clean');
  if (h.isHot(obj)) out.push('hot');
  if (h.isCool(obj)) out.push('cool');
  return out;
}

/**
 * What the agent sees where it stands: an openable receptacle's open/closed status, then each
 * visible object with where it lies and its states (`mug 1 | on countertop 1 | clean`), then the held
 * object when it has a state worth remembering.
 */
function elements(h: Household): StateElement[] {
  const out: StateElement[] = [];
  const here = h.location;
  if (here !== MIDDLE) {
    const rec = h.world.layout.receptacles[here] as { name: string; openable: boolean; preposition: string };
    if (rec.openable) out.push({ kind: 'receptacle', text: joinFields(rec.name, h.isOpen(here) ? 'open' : 'closed') });
    if (h.accessible(here)) {
      const where = `${rec.preposition} ${rec.name}`;
      for (const obj of h.contentsOf(here)) {
        const o = h.world.objects[obj] as { name: string; toggleable: boolean };
        const extra = o.toggleable ? [h.isOn(obj) ? 'on' : 'off'] : states(h, obj);
        out.push({ kind: 'object', text: joinFields(o.name, where, ...extra) });
      }
    }
  }
  if (h.holding >= 0) {
    const held = states(h, h.holding);
    if (held.length > 0) out.push({ kind: 'held', text: joinFields(h.objName(h.holding), ...held) });
  }
  return out;
}
