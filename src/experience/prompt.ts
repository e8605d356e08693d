/**
 * The prompt protocol of the LLM experience model: the simulator's role, the task, a compact
 * history, the state, the action, k retrieved examples as `state, action → next state, reward`, and
 * the instruction to reason first and then answer in the JSON of `output.ts`.
 *
 * Two framings share the same pieces:
 * - `single`: every step is one self-contained request (system + one user message);
 * - `multi-round`: an episode is one chat. The first user message carries the task and the start
 *   state; each later step appends only its retrieved examples and the action, and the model's own
 *   earlier answers (whose `next_state` is the current state) stay in the conversation verbatim, so
 *   WebLLM's KV cache (or a server's prefix cache) prefills only the new tokens.
 *
 * Sections are marked with `## ` headings so `prompt-reader.ts` can read a prompt back (the `serve`
 * command answers this protocol with any `ExperienceModel`).
 */
import { canonicalState, parseState, type AbstractState } from '../core/state.ts';
import type { Observation, Transition } from '../core/types.ts';
import { envSpec } from '../envs/registry.ts';
import type { ChatMessage } from './llm/chat.ts';
import type { ExperienceInput } from './types.ts';

export type Framing = 'single' | 'multi-round';
export type ActionSyntax = 'web' | 'household' | 'page';

export const SECTION = {
  task: '## Task',
  history: '## Recent actions',
  examples: '## Similar real transitions',
  state: '## Current state',
  action: '## Action',
  admissible: '## Admissible actions',
} as const;

export interface PromptLimits {
  /** Elements of an example's state and next state shown (the rest is summarised as "… N more"). */
  exampleElements: number;
  /** Characters of one element's text in an example. */
  exampleElementChars: number;
  /** Recent actions listed in a single-framing prompt. */
  historyActions: number;
}

export const DEFAULT_LIMITS: PromptLimits = { exampleElements: 5, exampleElementChars: 90, historyActions: 4 };

const FORMAT = [
  'A state is a few header lines "key: value", then the elements one per line as "[n] kind: text", numbered from 1.',
  'Fields inside an element are separated by " | "; an action names an element by its first field.',
].join('\n');

const ANSWER = [
  'Think first: in "reasoning", say in one to three sentences what the action does here, using the similar real transitions as evidence.',
  'Then answer with exactly one JSON object and nothing else:',
  '{"reasoning": "...", "next_state": "<the whole next state in the format above>", "actions": ["<every action admissible in the next state>"], "reward": <number>, "done": <true|false>}',
].join('\n');

const ROLE: Record<ActionSyntax, string> = {
  web: [
    'You are the environment of a web shop that an agent is learning to use. Given the task, the current page and the agent\'s action, predict what the site shows next.',
    'Actions: search[query] on the search page; click[name] on a button, link or option (text elements cannot be clicked).',
    'Searching shows a results page of matching products; clicking a product opens its item page with its options; options are selected in place; "Buy Now" ends the episode.',
    'Reward: 0 on every step except "Buy Now", which gives a score between 0 and 1 for how well the bought product and its selected options match the task. done is true only after "Buy Now".',
    'Admissible actions: "search[...]" on the search page, otherwise click[name] for every button, link and option of the next page.',
  ].join('\n'),
  household: [
    'You are the environment of a text household (ALFWorld-like) in which an agent is learning to carry out tasks. Given the task, the current state and the agent\'s command, predict what happens next.',
    'Commands: go to R, open R, close R, take O from R, put O in/on R, clean O with R, heat O with R, cool O with R, use O, examine R, inventory, look.',
    'The feedback line says what the command did; the elements list the objects visible at the current location.',
    'Reward: 1 on the step that completes the task (done is then true), otherwise 0.',
  ].join('\n'),
  page: [
    'You are a web page that an agent is learning to use. Given the task, the current page and the agent\'s action, predict what the page shows next.',
    'Elements a person can act on carry an id first ("#17 Submit"); actions name it: click[#17 Submit], type[#9 Email | text], select[#11 Country | France], check[#10 Remember me], uncheck[#10 Remember me], press[#9 Email | Enter], go back.',
    'The header lines give the page title, its url path and the instruction; a field shows its value, a box whether it is checked.',
    'Reward: what the page reports when the episode ends (above 0 is success), otherwise 0. done is true when the page says the task is over.',
  ].join('\n'),
};

export function syntaxOf(env: string): ActionSyntax {
  return envSpec(env).actionSyntax;
}

export function systemPrompt(syntax: ActionSyntax): string {
  return `${ROLE[syntax]}\n\n${FORMAT}\n\n${ANSWER}`;
}

function clip(text: string, chars: number): string {
  return text.length <= chars ? text : `${text.slice(0, chars - 1)}…`;
}

/**
 * An example's state, shortened: header lines other than the instruction/task (the example's task is
 * not the current one), and the first few elements.
 */
export function compactState(text: string, limits: PromptLimits = DEFAULT_LIMITS): string {
  let state: AbstractState;
  try {
    state = parseState(text);
  } catch {
    return clip(text.replace(/\s+/g, ' '), limits.exampleElements * limits.exampleElementChars);
  }
  const header = state.header.filter(([key]) => key !== 'instruction' && key !== 'task').map(([k, v]) => `${k}: ${clip(v, 160)}`);
  const shown = state.elements.slice(0, limits.exampleElements).map((e, i) => `[${i + 1}] ${e.kind}: ${clip(e.text, limits.exampleElementChars)}`);
  const more = state.elements.length - shown.length;
  return [...header, ...shown, ...(more > 0 ? [`… ${more} more element${more === 1 ? '' : 's'}`] : [])].join('\n');
}

export function renderExample(t: Transition, n: number, limits: PromptLimits = DEFAULT_LIMITS): string {
  const lines = [`### Example ${n}`];
  // The example's task matters only where it decides the reward.
  if (t.reward !== 0 || t.done) lines.push(`task: ${clip(t.instruction, 200)}`);
  lines.push('state:', compactState(t.state.text, limits), `action: ${t.action}`);
  if (t.reasoning) lines.push(`reasoning: ${clip(t.reasoning, 300)}`);
  lines.push('next state:', compactState(t.next.text, limits), `reward: ${t.reward}, done: ${t.done}`);
  return lines.join('\n');
}

function examplesSection(examples: readonly Transition[], limits: PromptLimits): string[] {
  if (examples.length === 0) return [];
  return [SECTION.examples, ...examples.map((t, i) => renderExample(t, i + 1, limits))];
}

/** The text of an observation as the prompt shows it: the state, canonically rendered when it parses. */
export function stateText(observation: Observation): string {
  return canonicalState(observation.text);
}

function recentActions(input: ExperienceInput, limits: PromptLimits): string[] {
  const recent = input.history.slice(-limits.historyActions);
  const offset = input.history.length - recent.length;
  return recent.length > 0 ? [SECTION.history, ...recent.map((h, i) => `${offset + i + 1}. ${h.action}`)] : [];
}

/** The user message that states everything about a step: task, recent actions, examples, state, action. */
function fullStepMessage(input: ExperienceInput, limits: PromptLimits): ChatMessage {
  const user = [
    SECTION.task,
    input.task.instruction,
    ...recentActions(input, limits),
    ...examplesSection(input.examples, limits),
    SECTION.state,
    stateText(input.state),
    // The shop's actions follow from its elements; a household's and a live page's (their ids,
    // a select's options) do not, and the model must carry them forward, so they are listed.
    ...(syntaxOf(input.task.env) !== 'web' ? [SECTION.admissible, input.state.actions.join('; ')] : []),
    SECTION.action,
    input.action,
  ];
  return { role: 'user', content: user.join('\n') };
}

/** A self-contained request for one step. */
export function singleStepMessages(input: ExperienceInput, limits: PromptLimits = DEFAULT_LIMITS): ChatMessage[] {
  return [{ role: 'system', content: systemPrompt(syntaxOf(input.task.env)) }, fullStepMessage(input, limits)];
}

/**
 * The opening of a multi-round episode (or its restart when the conversation outgrew the context):
 * the same self-contained step, after which later rounds add only what is new.
 */
export function firstRoundMessages(input: ExperienceInput, limits: PromptLimits = DEFAULT_LIMITS): ChatMessage[] {
  return singleStepMessages(input, limits);
}

/** A later round: the state is the model's previous answer, so only the examples and the action are new. */
export function nextRoundMessage(input: ExperienceInput, limits: PromptLimits = DEFAULT_LIMITS): ChatMessage {
  return { role: 'user', content: [...examplesSection(input.examples, limits), SECTION.action, input.action].join('\n') };
}

/** A finished round as it stays in the conversation: the model's reply (verbatim when we have it). */
export function assistantMessage(content: string): ChatMessage {
  return { role: 'assistant', content };
}

