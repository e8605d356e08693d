/**
 * Embeddings for retrieval: a `(state, action)` pair or a task becomes a fixed dense vector, with no
 * model to download. Words and bigrams are hashed (with a hashed sign, so collisions cancel rather
 * than pile up) into groups; each group is normalised and weighted, then the whole vector is
 * L2-normalised, so a dot product is a cosine.
 *
 * The weights say what "similar" means for grounding a prediction: the same kind of page and the
 * same kind of action first (what happens next depends mostly on those), then the action's words,
 * then the rest of the state and the instruction. Not a web page's element ids (`#22`): they count
 * up over a page's life, and embedded they made a reply's Send (`click[#22 Send]`) nearest to the
 * other tasks' Sends numbered 22, never to a demonstrated reply numbered 28.
 */
import { parseWebAction } from '../core/actions.ts';
import { hashString } from '../core/rng.ts';
import { elementTarget, parseState, type AbstractState } from '../core/state.ts';
import { tokens, wordsAndBigrams } from '../core/text.ts';
import type { Observation, Task } from '../core/types.ts';
import { withoutActionId, withoutElementId } from '../envs/web/actions.ts';

export const EMBEDDING_DIM = 128;
/** Bump when embedStateAction embeds differently: vectors stored by another version are computed again (retrieval.ts). */
export const EMBEDDING_VERSION = 2;

/** Group weights (relative; the whole vector is normalised at the end). */
export const GROUP_WEIGHTS = {
  page: 3,
  actionKind: 3,
  action: 1.5,
  header: 1,
  elements: 0.6,
  instruction: 0.6,
} as const;
type Group = keyof typeof GROUP_WEIGHTS;

class HashedVector {
  readonly values: Float32Array;
  constructor(readonly dim: number) {
    this.values = new Float32Array(dim);
  }

  /** Add a group: each feature ±1 in its bucket, the group scaled to norm `weight`. */
  group(name: Group | string, features: readonly string[], weight: number): void {
    if (features.length === 0 || weight === 0) return;
    const scratch = new Map<number, number>();
    for (const f of features) {
      const h = hashString(`${name}\u0000${f}`);
      const bucket = h % this.dim;
      scratch.set(bucket, (scratch.get(bucket) ?? 0) + ((h >>> 31) === 1 ? 1 : -1));
    }
    let norm = 0;
    for (const v of scratch.values()) norm += v * v;
    if (norm === 0) return;
    const scale = weight / Math.sqrt(norm);
    for (const [bucket, v] of scratch) this.values[bucket] = (this.values[bucket] as number) + v * scale;
  }

  normalized(): Float32Array {
    let norm = 0;
    for (const v of this.values) norm += v * v;
    if (norm > 0) {
      const inv = 1 / Math.sqrt(norm);
      for (let i = 0; i < this.dim; i++) this.values[i] = (this.values[i] as number) * inv;
    }
    return this.values;
  }
}

/** The kind of page: shop's `page:` header, the household's location type (`fridge`, `middle`). */
export function pageKind(state: AbstractState): string {
  const page = state.header.find(([k]) => k === 'page')?.[1];
  if (page !== undefined) return `page ${page.toLowerCase()}`;
  const location = state.header.find(([k]) => k === 'location')?.[1];
  if (location !== undefined) return `at ${tokens(location).filter((w) => !/^[0-9]/.test(w)).join(' ')}`;
  return 'unknown';
}

/** The kind of action: `search`, `click button`, `click link`, a command's verb (`take`, `go`). */
export function actionKind(action: string, state: AbstractState): string {
  const web = parseWebAction(action);
  if (web?.kind === 'search') return 'search';
  if (web?.kind === 'click') {
    const target = web.target.toLowerCase();
    const element = state.elements.find((e) => elementTarget(e).toLowerCase() === target);
    return element ? `click ${element.kind}` : 'click';
  }
  return tokens(action)[0] ?? 'none';
}

/** Embed what the experience model is asked about: this action in this state, for this instruction. */
export function embedStateAction(instruction: string, state: Observation, action: string, dim = EMBEDDING_DIM): Float32Array {
  let parsed: AbstractState;
  try {
    parsed = parseState(state.text);
  } catch {
    parsed = { header: [], elements: [{ kind: 'text', text: state.text }] };
  }
  const v = new HashedVector(dim);
  v.group('page', [pageKind(parsed)], GROUP_WEIGHTS.page);
  v.group('actionKind', [actionKind(action, parsed)], GROUP_WEIGHTS.actionKind);
  v.group('action', wordsAndBigrams(tokens(withoutActionId(action))), GROUP_WEIGHTS.action);
  const header = parsed.header.filter(([k]) => k !== 'page' && k !== 'instruction' && k !== 'task' && k !== 'feedback');
  v.group('header', header.flatMap(([k, value]) => tokens(value).map((w) => `${k}:${w}`)), GROUP_WEIGHTS.header);
  v.group('elements', parsed.elements.slice(0, 40).flatMap((e) => [`kind:${e.kind}`, ...tokens(withoutElementId(e.text))]), GROUP_WEIGHTS.elements);
  v.group('instruction', tokens(instruction), GROUP_WEIGHTS.instruction);
  return v.normalized();
}

/** Embed a task by its instruction (for the curriculum's "similar tasks"). */
export function embedTask(task: Pick<Task, 'env' | 'instruction'>, dim = EMBEDDING_DIM): Float32Array {
  const v = new HashedVector(dim);
  v.group('env', [task.env], 1);
  v.group('instruction', wordsAndBigrams(tokens(task.instruction)), 3);
  return v.normalized();
}
