/**
 * ALFWorld's feedback sentences (from its TextWorld grammar, alfred.twl2), kept word for word so that
 * transcripts read like ALFWorld's, quirks included: the article is always "a" ("a apple 1") and
 * lists end with ", and" even for two items.
 */

export const WELCOME = '-= Welcome to TextWorld, ALFRED! =-';
export const NOTHING_HAPPENS = 'Nothing happens.';

/** TextWorld's list: "nothing", "a x", "a x, and a y", "a x, a y, and a z". */
export function listThings(names: readonly string[]): string {
  if (names.length === 0) return 'nothing';
  if (names.length === 1) return `a ${names[0] as string}`;
  let out = '';
  for (let i = 0; i < names.length; i++) {
    if (i > 0) out += i === names.length - 1 ? ', and ' : ', ';
    out += `a ${names[i] as string}`;
  }
  return out;
}

export function intro(lookText: string, goal: string): string {
  return `${WELCOME}\n\n${lookText}\n\nYour task is to: ${goal}`;
}

export function lookMiddle(receptacles: readonly string[]): string {
  return `You are in the middle of a room. Looking quickly around you, you see ${listThings(receptacles)}.`;
}

export function lookAt(receptacle: string): string {
  return `You are facing the ${receptacle}. Next to it, you see nothing.`;
}

/** What examining a receptacle (or arriving at it, or opening it) reveals. */
export function describeReceptacle(name: string, openable: boolean, open: boolean, contents: readonly string[]): string {
  if (openable && open) return `The ${name} is open. In it, you see ${listThings(contents)}.`;
  if (openable) return `The ${name} is closed.`;
  return `On the ${name}, you see ${listThings(contents)}.`;
}

export const arrive = (name: string, description: string): string => `You arrive at ${name}. ${description}`;
export const opened = (name: string, description: string): string => `You open the ${name}. ${description}`;
export const closed = (name: string): string => `You close the ${name}.`;
export const pickedUp = (obj: string, rec: string): string => `You pick up the ${obj} from the ${rec}.`;
/** Older ALFWorld (`put O in/on R`). */
export const put = (obj: string, rec: string): string => `You put the ${obj} in/on the ${rec}.`;
/** Newer ALFWorld (`move O to R`). */
export const moved = (obj: string, rec: string): string => `You move the ${obj} to the ${rec}.`;
export const transformed = (verb: 'heat' | 'cool' | 'clean', obj: string, rec: string): string =>
  `You ${verb} the ${obj} using the ${rec}.`;
export const turnedOn = (lamp: string): string => `You turn on the ${lamp}.`;

export function inventory(held: string | null): string {
  return held === null ? 'You are not carrying anything.' : `You are carrying: a ${held}.`;
}

export interface ExaminedObject {
  name: string;
  toggleable: boolean;
  on: boolean;
  clean: boolean;
  hot: boolean;
  cool: boolean;
}

/** examineObject.feedback, in the grammar's order of conditions. */
export function examineObject(o: ExaminedObject): string {
  if (o.clean && o.hot) return `This is a hot and clean ${o.name}.`;
  if (o.clean && o.cool) return `This is a cool and clean ${o.name}.`;
  if (o.hot) return `This is a hot ${o.name}.`;
  if (o.clean) return `This is a clean ${o.name}.`;
  if (o.cool) return `This is a cold ${o.name}.`;
  if (o.toggleable) return `This ${o.name} is ${o.on ? 'on' : 'off'}.`;
  return `There's nothing special about ${o.name}.`;
}
