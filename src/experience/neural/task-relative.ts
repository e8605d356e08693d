/**
 * Actions written relative to their own task, so that analogous steps of different tasks read the
 * same. "put mug 1 in/on coffeemachine 1" under "put a clean mug in coffeemachine." and "put watch 3
 * in/on shelf 2" under "put a watch in shelf." are both `put · # _ _ · #`: the verb, then each word as
 * a word of the task (·), a number (#) or anything else (_).
 *
 * Why: a retrieved example's reward belongs to its own task. Whether "put mug 1 in/on coffeemachine 1"
 * earns a reward depends on whether a mug in the coffee machine is what *this* task asks for, which
 * the raw words cannot say across tasks (issue 24: of the home successes the model missed, all of
 * their examples came from other instructions, and a third of them showed this very action with
 * reward 0, where it was not the goal). In relative form, an example's rewarded `put · # _ _ · #`
 * speaks for ours, and a history of `clean · # _ _ #` says the object was prepared as asked, in
 * any environment whose actions name what their tasks name.
 */
import { wordsOf } from './lines.ts';
import { memo, memoWeak } from './memo.ts';

/**
 * The words of an instruction that can name what it asks for: not numbers, not two-letter words
 * ("a", "in", "it"). Memoised and read-only: one instruction's set is one object, which
 * `relativeForm` keys its own memo by (a prediction asks these of every example's task and history).
 */
export const taskNames: (instruction: string) => ReadonlySet<string> = memo((instruction) => new Set(wordsOf(instruction).filter((w) => w.length > 2 && !/^[0-9]/.test(w))), 1 << 12);

/** relativeForm's memo per names set (a set from taskNames lives while its instruction is memoised). */
const formsFor = memoWeak((names: ReadonlySet<string>) => memo((action: string) => formOf(action, names), 1 << 10));

/** An action in relative form: its verb, then each further word as ·, # or _. */
export function relativeForm(action: string, names: ReadonlySet<string>): string {
  return formsFor(names)(action);
}

function formOf(action: string, names: ReadonlySet<string>): string {
  const words = wordsOf(action);
  if (words.length === 0) return '';
  return [words[0] as string, ...words.slice(1).map((w) => (names.has(w) ? '·' : /^[0-9]/.test(w) ? '#' : '_'))].join(' ');
}

/** Whether a relative form names anything the task names (the steps that can bear on its goal). */
export function namesTask(form: string): boolean {
  return form.includes('·');
}

/**
 * How much of an example's preparation ours repeats: the share of the distinct task-naming steps of
 * its history (relative form, counts aside: a policy that went to the sink twice still went there)
 * that ours took too; 1 when it has none. A rewarded example that heated its object before putting
 * it where its task wanted speaks for our put only if we heated ours.
 */
export function preparationRepeated(ours: readonly string[], ourNames: ReadonlySet<string>, theirs: readonly string[], theirNames: ReadonlySet<string>): number {
  const mine = preparation(ours, ourNames);
  const wanted = preparation(theirs, theirNames);
  if (wanted.size === 0) return 1;
  let met = 0;
  for (const f of wanted) if (mine.has(f)) met++;
  return met / wanted.size;
}

/**
 * The distinct task-naming steps of a history in relative form, counts aside. Memoised per history
 * array and names set: a retrieved example's history is read for every transition it is retrieved
 * for, and ours for every example.
 */
const preparationsOf = memoWeak((actions: readonly string[]) =>
  memoWeak((names: ReadonlySet<string>): ReadonlySet<string> => new Set(relativeHistory(actions, names).map((f) => f.replace(/ ×[0-9]+$/, '')))),
);

function preparation(actions: readonly string[], names: ReadonlySet<string>): ReadonlySet<string> {
  return preparationsOf(actions)(names);
}

/** How often a history already took this action in relative form (a second object's put is not the first's), capped at `cap`. */
export function timesTaken(form: string, history: readonly string[], names: ReadonlySet<string>, cap = 2): number {
  return Math.min(cap, history.filter((a) => relativeForm(a, names) === form).length);
}

/**
 * The history's actions that name the task, in relative form, each with how often it was taken
 * (capped at `cap`): `clean · # _ _ # ×1`, `put · # _ _ · # ×2`. A task that wants two objects
 * placed is met by the second such put, not the first; the count lets a learned head see which.
 */
export function relativeHistory(actions: readonly string[], names: ReadonlySet<string>, cap = 2): string[] {
  const counts = new Map<string, number>();
  for (const action of actions) {
    const form = relativeForm(action, names);
    if (namesTask(form)) counts.set(form, (counts.get(form) ?? 0) + 1);
  }
  return [...counts].map(([form, n]) => `${form} ×${Math.min(cap, n)}`);
}

/**
 * A task relative to an action: its words, those the action also says written ·, numbers #. "put a
 * hot apple in garbagecan." under "put apple 2 in/on garbagecan 1" is `· a hot · · ·`; "put two
 * cellphone in shelf." under "put cellphone 1 in/on shelf 1" is `· two · · ·`: what the task asks
 * beyond the step itself. An example whose task reads as ours, each relative to its own action,
 * was after what we are after; one whose task asked for two, or for it hot, was not (issue 24: the
 * home model missed plain puts whose examples came from two-object tasks, and called unprepared
 * puts successes on the word of examples from tasks with nothing to prepare).
 */
export function taskForm(instruction: string, action: string): string {
  const said = new Set(wordsOf(action));
  return wordsOf(instruction)
    .map((w) => (said.has(w) ? '·' : /^[0-9]/.test(w) ? '#' : w))
    .join(' ');
}

/**
 * The first `n` words a task asks beyond the action (taskForm's words that are not · or #): `a hot`,
 * `two`, `heat some and it`. Short, so that it names the kind of task and not the task itself (a
 * shop instruction's first words are "i need a …", shared by many).
 */
export function taskAsks(instruction: string, action: string, n = 4): string {
  return taskForm(instruction, action)
    .split(' ')
    .filter((w) => w !== '·' && w !== '#' && w !== '')
    .slice(0, n)
    .join(' ');
}
