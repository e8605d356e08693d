/**
 * The vocabulary-free featurizer. A state becomes a hashed bag of words and bigrams (so generated
 * tasks and unseen words still map somewhere) plus a few dense facts; every candidate action
 * becomes a hashed bag over its own text and the element it names, plus relation features that
 * compare it with the instruction and the history. The relations carry what hashing cannot:
 * "this product title shares most words with the request" holds for words never seen in training.
 *
 * Household commands (`take egg 1 from fridge 1`) are read through their parts (verb, what they act
 * on, where it goes; `commandParts`) rather than by raw word overlap: `take kettle 1 from countertop 1`
 * shares "countertop" with "put two spoon in countertop" and is still the wrong thing to take.
 */
import { parseWebAction } from '../core/actions.ts';
import { elementFields, elementTarget, parseState, type AbstractState, type StateElement } from '../core/state.ts';
import type { Observation } from '../core/types.ts';
import { parsePageAction, withoutElementId, type PageAction } from '../envs/web/actions.ts';
import { elementKey, onElement, pageActionKey, pageRelations, readInstruction, readPage } from './page-relations.ts';
import type { SparseRows } from '../platform/dense.ts';
import { contentWords, dollarAmount, featureIndex, tokens, wordsAndBigrams } from './text.ts';

export interface FeaturizerConfig {
  /** Hashed buckets for the state bag. */
  stateBuckets: number;
  /** Hashed buckets for each action's bag. */
  actionBuckets: number;
  /** How many previous actions the state encodes. */
  historyWindow: number;
  /** At most this many elements of a state are read (long listings are cut). */
  maxElements: number;
}

export const DEFAULT_FEATURIZER: FeaturizerConfig = {
  stateBuckets: 2048,
  actionBuckets: 1024,
  historyWindow: 3,
  maxElements: 40,
};

/** Dense state facts appended after the hashed buckets. */
export const STATE_FACTS = ['bias', 'instructionCoverage', 'progress'] as const;
/**
 * Dense action-relation features appended after the hashed buckets. From `argumentInInstruction`
 * on they are a household command's (zero for the shop's `search[…]` / `click[…]`); a web page's
 * action (`type[#16 Ship to | Bruno Nakamura]`, page-relations.ts) fills the same columns with
 * what they mean for an element and a value: `argumentInInstruction` its value is named by the
 * request (without a value: a quoted span of the request is in the element's name),
 * `destinationInInstruction` the value stands next to words of the element's name there,
 * `verbInInstruction` the element's name holds the request's verb, `undoesRecent` it checks what
 * was just unchecked (or the reverse), `dropsWanted` it replaces a value the request names or
 * unchecks what it quotes; the others stay zero. Its `phraseInInstruction` is its name as a
 * phrase of the request, or a quoted span of the request in its name. `taken` and `repeatsLast`
 * compare actions as `historyKey` spells them (a page action without its id); `timesTaken` counts
 * the acts on the same element (`elementKey`: a page action's name, whatever its value).
 */
export const ACTION_RELATIONS = [
  'bias',
  'sharedOfAction',
  'sharedOfInstruction',
  'phraseInInstruction',
  'taken',
  'timesTaken',
  'repeatsLast',
  'position',
  'withinBudget',
  'sharedWithHeader',
  'argumentInInstruction',
  'destinationInInstruction',
  'undoesRecent',
  'carriesWantedToGoal',
  'verbInInstruction',
  'opensClosed',
  'dropsWanted',
  'takesFromGoal',
  'takesUnwanted',
] as const;

/**
 * The policy's starting prior over the relations (weights of their linear path to the logit):
 * prefer candidates that share words with the request, that are within its budget, that concern
 * what the agent holds or where it is; act on and carry what the request names toward where it
 * names, open what is closed; avoid repeating itself, undoing what it just did, picking up what the
 * request does not name, and putting down or taking back what it does. A from-scratch policy has no other
 * prior (an LLM agent starts from its pretraining); without one, a uniformly random start never
 * finishes a household task in 50 steps, so sparse-reward RL has nothing to learn from. It is an
 * initialisation only: training changes these weights like any other.
 */
export const DEFAULT_RELATION_PRIOR: Readonly<Record<(typeof ACTION_RELATIONS)[number], number>> = {
  bias: 0,
  sharedOfAction: 1,
  sharedOfInstruction: 2,
  phraseInInstruction: 1,
  taken: -1,
  timesTaken: -1,
  repeatsLast: -1,
  position: 0,
  withinBudget: 1,
  sharedWithHeader: 0.5,
  argumentInInstruction: 2,
  destinationInInstruction: 1,
  undoesRecent: -4,
  carriesWantedToGoal: 3,
  verbInInstruction: 1,
  opensClosed: 1.5,
  dropsWanted: -3,
  takesFromGoal: -3,
  takesUnwanted: -2,
};

export function relationPrior(scale: number): number[] {
  return ACTION_RELATIONS.map((name) => DEFAULT_RELATION_PRIOR[name] * scale);
}

export function stateWidth(config: FeaturizerConfig): number {
  return config.stateBuckets + STATE_FACTS.length;
}
export function actionWidth(config: FeaturizerConfig): number {
  return config.actionBuckets + ACTION_RELATIONS.length;
}

/** A sparse row: parallel index/value arrays over one width. */
export interface SparseRow {
  indices: number[];
  values: number[];
}

export interface PolicyInput {
  instruction: string;
  observation: Observation;
  /** Actions taken so far in this episode, oldest first. */
  history: readonly string[];
}

export interface Features {
  state: SparseRow;
  actions: SparseRow[];
}

/** Headers that repeat the instruction or are shown as free text elsewhere. */
const INSTRUCTION_KEYS = new Set(['instruction', 'task', 'goal']);
const STEP_HORIZON = 50;

/**
 * A row of `buckets` hashed features followed by dense facts. Hashing is modulo `buckets` only, so a
 * word never lands in (and is never read as) a dense fact's column.
 */
class BagBuilder {
  private readonly weights = new Map<number, number>();
  constructor(private readonly buckets: number) {}

  /** Add a group of features, each weighted 1/sqrt(group size) so long texts do not drown short ones. */
  group(namespace: string, features: readonly string[]): void {
    if (features.length === 0) return;
    const w = 1 / Math.sqrt(features.length);
    for (const f of features) {
      const i = featureIndex(namespace, f, this.buckets);
      this.weights.set(i, (this.weights.get(i) ?? 0) + w);
    }
  }

  dense(offset: number, values: readonly number[]): void {
    values.forEach((v, j) => {
      if (v !== 0) this.weights.set(offset + j, v);
    });
  }

  row(): SparseRow {
    const indices = [...this.weights.keys()].sort((a, b) => a - b);
    return { indices, values: indices.map((i) => this.weights.get(i) as number) };
  }
}

function overlap(words: readonly string[], reference: ReadonlySet<string>): number {
  let n = 0;
  for (const w of words) if (reference.has(w)) n++;
  return n;
}

/** Elements by what a click names, lowercased; built once per state, not once per candidate. */
function elementsByTarget(state: AbstractState): Map<string, StateElement> {
  const byTarget = new Map<string, StateElement>();
  for (const element of state.elements) {
    const key = elementTarget(element).toLowerCase();
    if (!byTarget.has(key)) byTarget.set(key, element);
  }
  return byTarget;
}

/** The text an action is about: the element it clicks (a product id says nothing by itself), or the command. */
function describeAction(action: string, byTarget: ReadonlyMap<string, StateElement>): { text: string; kind: string; primary: string } {
  const web = parseWebAction(action);
  if (web?.kind === 'click') {
    const element = byTarget.get(web.target.toLowerCase());
    if (element) return { text: elementFields(element).join(' '), kind: element.kind, primary: elementTarget(element) };
    return { text: web.target, kind: 'click', primary: web.target };
  }
  if (web?.kind === 'search') return { text: web.query, kind: 'search', primary: web.query };
  return { text: action, kind: 'command', primary: action };
}

/**
 * A page action's text: the element's line without its id, and the value. An id (`#16`) is a
 * page's own numbering and says nothing about which action fits, so it is not hashed as a word.
 */
function describePageAction(action: PageAction, byTarget: ReadonlyMap<string, StateElement>): { text: string; kind: string; primary: string; current: string | null } {
  if (action.verb === 'back') return { text: 'go back', kind: 'back', primary: '', current: null };
  if (action.verb === 'wait') return { text: 'wait', kind: 'wait', primary: '', current: null };
  const label = action.name === '' ? `#${action.id}` : `#${action.id} ${action.name}`;
  const element = byTarget.get(label.toLowerCase());
  const [head, ...rest] = element ? elementFields(element) : [label];
  // The web snapshot writes a field's text as `value: …`, or `empty` (envs/web/snapshot.ts).
  const shown = rest.find((f) => f === 'empty' || f.startsWith('value: '));
  const current = shown === undefined ? null : shown === 'empty' ? '' : shown.slice('value: '.length);
  const text = [withoutElementId(head as string), ...rest, action.value ?? ''].join(' ').trim();
  return { text, kind: element?.kind ?? action.verb, primary: action.name, current };
}

const PREPOSITIONS = new Set(['from', 'in', 'on', 'with', 'to', 'into', 'onto']);
/** Where a command puts its object: `put X in/on R`, `move X to R`, `go to R`. */
const DESTINATION_PREPOSITIONS = new Set(['in', 'on', 'to', 'into', 'onto']);

/**
 * A command's parts (`take egg 1 from fridge 1` → verb take, argument [egg, 1], from [fridge, 1]):
 * what it acts on and where that goes. A leading preposition (`go to R`) makes R the argument.
 */
export interface CommandParts {
  verb: string;
  argument: string[];
  preposition: string | null;
  rest: string[];
}

export function commandParts(command: string): CommandParts {
  const words = tokens(command);
  const verb = words[0] ?? '';
  let i = 1;
  while (i < words.length && PREPOSITIONS.has(words[i] as string)) i++;
  const start = i;
  while (i < words.length && !PREPOSITIONS.has(words[i] as string)) i++;
  const argument = words.slice(start, i);
  const preposition = i < words.length ? (words[i] as string) : null;
  while (i < words.length && PREPOSITIONS.has(words[i] as string)) i++;
  return { verb, argument, preposition, rest: words.slice(i) };
}

/** All of a phrase's content words are in the set (and it has some). */
function namedIn(words: readonly string[], set: ReadonlySet<string>): boolean {
  const content = words.filter((w) => !/^[0-9.]+$/.test(w));
  return content.length > 0 && content.every((w) => set.has(w));
}

/** Same things acted on, another verb: `put X in R` right after `take X from R`, `close R` after `open R`. */
function undoes(parts: CommandParts, recent: readonly CommandParts[]): boolean {
  const key = [...parts.argument, '|', ...parts.rest].join(' ');
  const keyReversed = [...parts.rest, '|', ...parts.argument].join(' ');
  return recent.some((r) => {
    if (r.verb === parts.verb) return false;
    const other = [...r.argument, '|', ...r.rest].join(' ');
    const bare = r.argument.join(' ');
    return other === key || other === keyReversed || (parts.rest.length === 0 && bare === parts.argument.join(' ') && r.rest.length === 0);
  });
}

export class Featurizer {
  constructor(readonly config: FeaturizerConfig = DEFAULT_FEATURIZER) {}

  /** Features of a state and of each candidate action (`candidates` in the order the policy scores them). */
  featurize(input: PolicyInput, candidates: readonly string[]): Features {
    const { config } = this;
    const state = parseState(input.observation.text);
    const instructionWords = contentWords(input.instruction);
    const instructionSet = new Set(instructionWords);
    const instructionText = tokens(input.instruction).join(' ');
    const elements = state.elements.slice(0, config.maxElements);
    const headers = state.header.filter(([key]) => !INSTRUCTION_KEYS.has(key));

    const bag = new BagBuilder(config.stateBuckets);
    bag.group('instruction', wordsAndBigrams(tokens(input.instruction)));
    for (const [key, value] of headers) bag.group(`header:${key}`, wordsAndBigrams(tokens(value)));
    const bodyWords: string[] = [];
    for (const element of elements) {
      const words = tokens(element.text);
      bodyWords.push(...words);
      bag.group(`element:${element.kind}`, words);
    }
    const history = input.history;
    // Each action is parsed once: the history's and the candidates' keys, and the page relations, read the parses.
    const historyPages = history.map(parsePageAction);
    const historyKeys = history.map((action, i) => historyKey(action, historyPages[i] ?? null));
    for (let back = 1; back <= config.historyWindow && back <= history.length; back++) {
      bag.group(`previous:${back}`, wordsAndBigrams(tokens(historyKeys[historyKeys.length - back] as string)));
    }
    bag.group('step', [String(Math.min(history.length, 20))]);
    const bodySet = new Set(bodyWords);
    headers.forEach(([, value]) => tokens(value).forEach((w) => bodySet.add(w)));
    const coverage = instructionSet.size === 0 ? 0 : overlap([...instructionSet], bodySet) / instructionSet.size;
    bag.dense(config.stateBuckets, [1, coverage, Math.min(history.length / STEP_HORIZON, 1)]);

    const budget = dollarAmount(input.instruction);
    const headerWords = new Set(headers.flatMap(([, value]) => contentWords(value)));
    const counts = new Map<string, number>();
    const actsOn = new Map<string, number>();
    for (const [i, key] of historyKeys.entries()) {
      counts.set(key, (counts.get(key) ?? 0) + 1);
      const element = historyElement(history[i] as string, historyPages[i] ?? null);
      actsOn.set(element, (actsOn.get(element) ?? 0) + 1);
    }
    const last = historyKeys[historyKeys.length - 1];
    const recentParts = history.slice(-config.historyWindow).map(commandParts);
    const pageCandidates = candidates.map(parsePageAction);
    const pageContext = readPage(pageCandidates, historyPages.slice(-config.historyWindow));
    const instructionReading = readInstruction(input.instruction);
    const held = headers.find(([key]) => key === 'holding')?.[1] ?? '';
    const carriesWanted = namedIn(tokens(held), instructionSet);

    const byTarget = elementsByTarget(state);
    const actions = candidates.map((action, position) => {
      const page = pageCandidates[position] ?? null;
      const pageAbout = page ? describePageAction(page, byTarget) : null;
      const about = pageAbout ?? describeAction(action, byTarget);
      const onPage = page && pageAbout ? pageRelations(page, pageAbout.current, instructionReading, pageContext) : null;
      const aBag = new BagBuilder(config.actionBuckets);
      const words = tokens(about.text);
      aBag.group('action', wordsAndBigrams(words));
      const commandWords = tokens(action);
      aBag.group('verb', page ? [page.verb] : commandWords.slice(0, 1).concat(commandWords.slice(0, 2).join(' ')));
      aBag.group('kind', [about.kind]);
      const content = contentWords(about.text);
      const shared = overlap(content, instructionSet);
      const primary = tokens(about.primary).join(' ');
      const price = dollarAmount(about.text);
      const key = historyKey(action, page);
      const taken = counts.get(key) ?? 0;
      const timesActedOn = actsOn.get(historyElement(action, page)) ?? 0;
      // A command's overlap with the instruction is read through its parts (what it acts on, where
      // it goes) instead: `take kettle 1 from countertop 1` shares "countertop" with "put two spoon
      // in countertop" and is still the wrong thing to take.
      const isCommand = about.kind === 'command';
      const phraseInInstruction = onPage
        ? onPage.nameInInstruction
        : !isCommand && primary.length >= 3 && contentWords(primary).length > 0 && ` ${instructionText} `.includes(` ${primary} `);
      aBag.dense(config.actionBuckets, [
        1,
        isCommand || content.length === 0 ? 0 : shared / content.length,
        isCommand || instructionSet.size === 0 ? 0 : overlap([...new Set(content)], instructionSet) / instructionSet.size,
        phraseInInstruction ? 1 : 0,
        taken > 0 ? 1 : 0,
        // Capped at 9 repeats, not 3: a greedy policy alternating two no-op commands (`examine X`,
        // `examine R`) must keep finding them less attractive, or it loops to the step limit.
        // Counted per element on a page (any value): a policy choosing Classic, Metal, Classic … in
        // one menu, or typing one field again and again, is looping as surely as one repeating itself.
        Math.min(timesActedOn / 3, 3),
        key === last ? 1 : 0,
        candidates.length > 1 ? position / (candidates.length - 1) : 0,
        price === null || budget === null ? 0 : price <= budget ? 1 : -1,
        content.length === 0 ? 0 : overlap(content, headerWords) / content.length,
        ...(onPage
          ? [onPage.objectInInstruction ? 1 : 0, onPage.valueFollowsName ? 1 : 0, onPage.undoesRecent ? 1 : 0, 0, onPage.nameHasVerb ? 1 : 0, 0, onPage.dropsWanted ? 1 : 0, 0, 0]
          : commandRelations(isCommand ? commandParts(action) : null, instructionSet, recentParts, carriesWanted, byTarget)),
      ]);
      return aBag.row();
    });
    return { state: bag.row(), actions };
  }
}

/**
 * What an action did, as the history counts it: a page action by `pageActionKey` (without its id:
 * a redrawn page numbers the same element anew), any other action as written. `page` is the
 * action's parse (null where it is not a page action).
 */
function historyKey(action: string, page: PageAction | null): string {
  return onElement(page) ? pageActionKey(page) : action;
}

/** The element an action acts on (`elementKey` for a page action); any other action itself. */
function historyElement(action: string, page: PageAction | null): string {
  return onElement(page) ? elementKey(page) : action;
}

/** argumentInInstruction … verbInInstruction (zeros for what is not a command). */
function commandRelations(
  parts: CommandParts | null,
  instruction: ReadonlySet<string>,
  recent: readonly CommandParts[],
  carriesWanted: boolean,
  byTarget: ReadonlyMap<string, StateElement>,
): number[] {
  if (!parts) return [0, 0, 0, 0, 0, 0, 0, 0, 0];
  const target = byTarget.get(parts.argument.join(' '));
  const opensClosed = parts.verb === 'open' && target !== undefined && elementFields(target).includes('closed');
  const movement = parts.rest.length === 0 && parts.verb === 'go';
  const argumentNamed = namedIn(parts.argument, instruction);
  const toDestination = parts.preposition !== null && DESTINATION_PREPOSITIONS.has(parts.preposition);
  const destinationNamed = toDestination && namedIn(parts.rest, instruction);
  // `go to R` names R as its argument: moving toward a named place.
  const towardNamed = destinationNamed || (movement && argumentNamed);
  return [
    !movement && argumentNamed ? 1 : 0,
    destinationNamed ? 1 : 0,
    undoes(parts, recent) ? 1 : 0,
    carriesWanted && towardNamed ? 1 : 0,
    instruction.has(parts.verb) ? 1 : 0,
    opensClosed ? 1 : 0,
    // Putting what was asked for somewhere the request does not name, and taking it back out of a
    // place it does name, both undo progress (however long ago the progress was made).
    toDestination && argumentNamed && !destinationNamed ? 1 : 0,
    parts.preposition === 'from' && argumentNamed && namedIn(parts.rest, instruction) ? 1 : 0,
    // Picking up what the request does not name only costs the steps to put it down again.
    parts.verb === 'take' && !argumentNamed ? 1 : 0,
  ];
}

/** Dense tensors' backing arrays for a batch: states [N, S], actions [N, K, A], mask [N, K]. */
export interface PackedBatch {
  size: number;
  maxActions: number;
  states: Float32Array;
  actions: Float32Array;
  mask: Float32Array;
  /**
   * The action rows' relation columns (their last ACTION_RELATIONS.length) apart, [N·K, R]: the
   * network's skip path reads them, and slicing them off the action matrix in tfjs reads the whole
   * matrix back on the wasm backend (tens of megabytes per update).
   */
  relations: Float32Array;
  /** With `transposed`: statesᵀ [S, N] and actionsᵀ [A, N·K], for the weight gradients. */
  statesT?: Float32Array;
  actionsT?: Float32Array;
}

/**
 * A batch as compressed sparse rows, for the CPU-side backends (platform/dense.ts sparseInputDense):
 * states [N, S] and actions [N·K, A] keep only their nonzeros, the mask and the relation columns
 * are dense as in packBatch. A candidate slot a sample lacks is an empty row.
 */
export interface SparseBatch {
  size: number;
  maxActions: number;
  states: SparseRows;
  actions: SparseRows;
  mask: Float32Array;
  relations: Float32Array;
}

function sparseRows(rows: readonly (SparseRow | undefined)[], width: number): SparseRows {
  // Plain loops: an empty slot is a hole in `rows`, which forEach would skip.
  const offsets = new Int32Array(rows.length + 1);
  for (let r = 0; r < rows.length; r++) offsets[r + 1] = (offsets[r] as number) + (rows[r]?.indices.length ?? 0);
  const total = offsets[rows.length] as number;
  const columns = new Int32Array(total);
  const values = new Float32Array(total);
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r];
    if (!row) continue;
    columns.set(row.indices, offsets[r]);
    values.set(row.values, offsets[r]);
  }
  return { rows: rows.length, width, offsets, columns, values };
}

/**
 * What both layouts share: the batch width K (the most candidates of a sample, unless given), which
 * candidate slots hold an action (mask [N, K]) and the action rows' relation columns ([N·K, R]).
 */
function candidateSlots(batch: readonly Features[], config: FeaturizerConfig, maxActions: number | undefined): { K: number; mask: Float32Array; relations: Float32Array } {
  const K = maxActions ?? Math.max(1, ...batch.map((f) => f.actions.length));
  const R = ACTION_RELATIONS.length;
  const firstRelation = actionWidth(config) - R;
  const mask = new Float32Array(batch.length * K);
  const relations = new Float32Array(batch.length * K * R);
  batch.forEach((f, n) => {
    if (f.actions.length > K) throw new RangeError(`sample ${n} has ${f.actions.length} actions, more than the batch width ${K}`);
    f.actions.forEach((row, k) => {
      const r = n * K + k;
      mask[r] = 1;
      row.indices.forEach((i, j) => {
        if (i >= firstRelation) relations[r * R + i - firstRelation] = row.values[j] as number;
      });
    });
  });
  return { K, mask, relations };
}

export function packSparse(batch: readonly Features[], config: FeaturizerConfig, options: { maxActions?: number } = {}): SparseBatch {
  const { K, mask, relations } = candidateSlots(batch, config, options.maxActions);
  const actionRows: (SparseRow | undefined)[] = new Array(batch.length * K);
  batch.forEach((f, n) => f.actions.forEach((row, k) => (actionRows[n * K + k] = row)));
  return {
    size: batch.length,
    maxActions: K,
    states: sparseRows(batch.map((f) => f.state), stateWidth(config)),
    actions: sparseRows(actionRows, actionWidth(config)),
    mask,
    relations,
  };
}

export function packBatch(batch: readonly Features[], config: FeaturizerConfig, options: { maxActions?: number; transposed?: boolean } = {}): PackedBatch {
  const S = stateWidth(config);
  const A = actionWidth(config);
  const { K, mask, relations } = candidateSlots(batch, config, options.maxActions);
  const N = batch.length;
  const states = new Float32Array(N * S);
  const actions = new Float32Array(N * K * A);
  // Rows are sparse, so filling the transposes as well touches only the nonzeros again.
  const statesT = options.transposed ? new Float32Array(N * S) : undefined;
  const actionsT = options.transposed ? new Float32Array(N * K * A) : undefined;
  batch.forEach((f, n) => {
    f.state.indices.forEach((i, j) => {
      const v = f.state.values[j] as number;
      states[n * S + i] = v;
      if (statesT) statesT[i * N + n] = v;
    });
    f.actions.forEach((row, k) => {
      const r = n * K + k;
      row.indices.forEach((i, j) => {
        const v = row.values[j] as number;
        actions[r * A + i] = v;
        if (actionsT) actionsT[i * N * K + r] = v;
      });
    });
  });
  return { size: N, maxActions: K, states, actions, mask, relations, ...(statesT && actionsT ? { statesT, actionsT } : {}) };
}
