/**
 * How a prediction pool (prediction-pool.ts) sends inputs to a worker: each task, state and
 * retrieved example goes to a worker once, and after that by number.
 *
 * Two reasons. Most of an input is its examples and its history's states, which recur from step to
 * step (the buffer's transitions, the episode's earlier states). And the model's memos key examples and states by object (memo.ts): a copy sent again is a new
 * object, so every memo would miss, and a batch of copies predicts well below the pace of the same
 * batch of objects already seen.
 *
 * Both ends keep what was sent in the same bounded first-in-first-out table, fed in the same
 * order (both walk an input with `swapObjects`), so they forget the same entries at the same time
 * and a number always names an object the worker still holds.
 */
import type { Observation, Task, Transition } from '../../core/types.ts';
import type { ExperienceInput } from '../types.ts';
import { BoundedMap } from '../../core/bounded-map.ts';

/** An object the worker already holds (its number), or one it is sent now with the number it will go by. */
export type WireRef<T> = number | { id: number; value: T };

/** An input's shape, whatever stands for its task, its states and its examples. */
interface InputOf<T, O, X> {
  task: T;
  history: { state: O; action: string }[];
  state: O;
  action: string;
  examples: X[];
  episodeId?: string;
}

export type WireInput = InputOf<WireRef<Task>, WireRef<Observation>, WireRef<Transition>>;

/**
 * `input` with its task, each state and each example put through `swap`, always in this order:
 * the one walk both ends take, so that their tables are fed in the same order by construction.
 */
function swapObjects<T, O, X, T2, O2, X2>(input: InputOf<T, O, X>, swap: { task: (t: T) => T2; state: (o: O) => O2; example: (x: X) => X2 }): InputOf<T2, O2, X2> {
  return {
    task: swap.task(input.task),
    history: input.history.map((h) => ({ state: swap.state(h.state), action: h.action })),
    state: swap.state(input.state),
    action: input.action,
    examples: input.examples.map((x) => swap.example(x)),
    ...(input.episodeId !== undefined ? { episodeId: input.episodeId } : {}),
  };
}

/**
 * Objects both ends remember: a worker holds at most this many. A dream of 32 lanes meets about
 * 32 × (3 examples + 1 state) new objects a step at most; this keeps the last few hundred steps'.
 */
export const WIRE_MEMORY = 1 << 15;

/** The numbers objects go by, shared by every worker of a pool (a worker is sent each object once). */
export class WireNumbers {
  private readonly ids = new WeakMap<object, number>();
  private next = 0;

  of(value: object): number {
    let id = this.ids.get(value);
    if (id === undefined) {
      id = this.next++;
      this.ids.set(value, id);
    }
    return id;
  }
}

/** The pool's end for one worker: what it has sent that worker. */
export class WireEncoder {
  private readonly sent: BoundedMap<number, true>;

  constructor(
    private readonly numbers: WireNumbers,
    memory = WIRE_MEMORY,
  ) {
    this.sent = new BoundedMap(memory);
  }

  encode(inputs: readonly ExperienceInput[]): WireInput[] {
    const ref = <V extends object>(value: V): WireRef<V> => {
      const id = this.numbers.of(value);
      if (this.sent.has(id)) return id;
      this.sent.set(id, true);
      return { id, value };
    };
    return inputs.map((input) => swapObjects(input, { task: ref, state: ref, example: ref }));
  }
}

/** The worker's end: the objects it was sent, by number. */
export class WireDecoder {
  private readonly held: BoundedMap<number, unknown>;

  constructor(memory = WIRE_MEMORY) {
    this.held = new BoundedMap(memory);
  }

  decode(inputs: readonly WireInput[]): ExperienceInput[] {
    const deref = <V>(ref: WireRef<V>): V => {
      if (typeof ref !== 'number') {
        this.held.set(ref.id, ref.value);
        return ref.value;
      }
      const value = this.held.get(ref);
      // Only a pool that lost track of what it sent (a bug, not bad input) gets here.
      if (value === undefined) throw new Error(`prediction worker: object ${ref} was never sent, or was forgotten before it was named`);
      return value as V;
    };
    return inputs.map((input) => swapObjects(input, { task: deref<Task>, state: deref<Observation>, example: deref<Transition> }));
  }
}
