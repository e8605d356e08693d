/**
 * Reads a prompt of this project's protocol back into the step it describes, so `serve` can answer
 * a chat request with any `ExperienceModel` (kNN behind an OpenAI-compatible endpoint). Both
 * framings are read: the current state is the last "## Current state" section, or, in a later round
 * of a multi-round chat, the `next_state` of the last assistant answer.
 */
import { UsageError } from '../core/errors.ts';
import { parseState } from '../core/state.ts';
import type { Observation } from '../core/types.ts';
import { ENVIRONMENTS } from '../envs/registry.ts';
import type { ChatMessage } from './llm/chat.ts';
import { parseOutput, webActionsFromState } from './output.ts';
import { SECTION, systemPrompt, type ActionSyntax } from './prompt.ts';

export interface ReadStep {
  env: string;
  syntax: ActionSyntax;
  instruction: string;
  state: Observation;
  action: string;
  /** Actions taken before this step, as far as the prompt tells. */
  history: string[];
  /**
   * The same steps with the state each was taken in: in a multi-round chat, the opening state and
   * then each answered round's `next_state`, which is what an in-process synthetic env holds as its
   * history (so a model served over HTTP sees what it sees in-process). Actions the opening lists
   * as recent history come with the opening state, the only one the prompt tells.
   */
  steps: { state: Observation; action: string }[];
}

/** The text under a `## ` heading up to the next heading of the same level. */
function section(content: string, heading: string): string | undefined {
  const lines = content.split('\n');
  const start = lines.lastIndexOf(heading);
  if (start < 0) return undefined;
  const body: string[] = [];
  for (let i = start + 1; i < lines.length && !/^## /.test(lines[i] as string); i++) body.push(lines[i] as string);
  return body.join('\n').trim();
}

function syntaxOfSystem(messages: readonly ChatMessage[]): ActionSyntax {
  const system = messages.find((m) => m.role === 'system')?.content ?? '';
  for (const syntax of ['web', 'household', 'page'] as const) if (system === systemPrompt(syntax)) return syntax;
  for (const syntax of ['web', 'household', 'page'] as const) if (system.startsWith(systemPrompt(syntax).split('\n')[0] as string)) return syntax;
  throw new UsageError('the system message is not one of this project\'s experience-model prompts');
}

function observationFromText(text: string, syntax: ActionSyntax): Observation {
  const actions = syntax === 'web' ? webActionsFromState(parseState(text)) : [];
  return { text, actions };
}

export function readPrompt(messages: readonly ChatMessage[]): ReadStep {
  if (!Array.isArray(messages) || messages.length === 0) throw new UsageError('the request has no messages');
  const syntax = syntaxOfSystem(messages);
  const env = ENVIRONMENTS.find((e) => e.actionSyntax === syntax)?.name as string;
  if (!messages.some((m) => m.role === 'user')) throw new UsageError('the request has no user message');
  // The step asked is the last user message with an action: one after it asks to repair an
  // unusable answer ("Answer again with only the JSON object"), and is answered as the step again.
  const last = messages.findLast((m) => m.role === 'user' && section(m.content, SECTION.action) !== undefined);
  if (!last) throw new UsageError('no user message has an "## Action" section');
  const action = section(last.content, SECTION.action) as string;
  if (action === '') throw new UsageError('the "## Action" section is empty');
  // The conversation opens (or restarts) with a self-contained step: the last user message that
  // carries a "## Current state" section. Everything after it is multi-round.
  const stateAt = messages.findLastIndex((m) => m.role === 'user' && section(m.content, SECTION.state) !== undefined);
  const opening = messages[stateAt];
  const instruction = messages.map((m) => (m.role === 'user' ? section(m.content, SECTION.task) : undefined)).findLast((t) => t !== undefined);
  let state: Observation | undefined;
  const steps: { state: Observation; action: string }[] = [];
  if (opening) {
    const text = section(opening.content, SECTION.state) as string;
    const listed = section(opening.content, SECTION.admissible);
    state = listed !== undefined ? { text, actions: listed.split('; ').filter((a) => a !== '') } : observationFromText(text, syntax);
    const recent = section(opening.content, SECTION.history);
    const opened = state;
    if (recent) for (const line of recent.split('\n')) steps.push({ state: opened, action: line.replace(/^\d+\.\s*/, '') });
  }
  // Later rounds: every action asked before the last one was answered and joins the history, taken
  // in the state the round before left; the model's last usable answer is the current state.
  const rounds = messages.slice(Math.max(stateAt, 0), messages.lastIndexOf(last));
  for (const m of rounds) {
    if (m.role === 'user') {
      const asked = section(m.content, SECTION.action);
      if (asked !== undefined && state !== undefined) steps.push({ state, action: asked });
    } else if (m.role === 'assistant') {
      const parsed = parseOutput(m.content, syntax);
      if (parsed.ok) state = parsed.prediction.next;
    }
  }
  if (instruction === undefined) throw new UsageError('no "## Task" section in the conversation');
  if (state === undefined) throw new UsageError('no current state in the conversation');
  return { env, syntax, instruction, state, action, history: steps.map((h) => h.action), steps };
}
