/**
 * Task generators: given the tasks the selection found most informative, make variations of them.
 *
 * - `BufferTaskGenerator` (no LLM): the environment recombines constraints that other tasks of the
 *   buffer use (`EnvSpec.variation`), harder for a task the policy mostly solves, easier for one it
 *   mostly fails, sideways in between.
 * - `LlmTaskGenerator`: the paper's task-generation prompt. The model sees the original task, its
 *   context (how the policy does on it) and data-driven candidate variations, may write its own, and
 *   picks the most useful one: challenging but feasible, meaningfully different, realistic. Its
 *   choice is grounded by the environment (a real goal when the text states one, else synthetic-only);
 *   an unusable reply falls back to the first candidate and is counted.
 */
import { errorMessage } from '../core/errors.ts';
import { Rng } from '../core/rng.ts';
import type { Task } from '../core/types.ts';
import type { EnvSpec } from '../envs/spec.ts';
import { usableInstruction, VARIATION_DIRECTIONS, type VariationDirection, type VaryOptions } from '../envs/variation.ts';
import type { ChatClient, ChatMessage } from '../experience/llm/chat.ts';
import { extractJsonObject, lenientJson } from '../experience/output.ts';

export interface VariationRequest {
  parent: Task;
  /** The parent's success rate in its latest group: which way to vary it. */
  successRate: number;
  variance: number;
}

export interface GeneratorStats {
  requested: number;
  made: number;
  /** Variations that map to a real goal (playable in the real environment). */
  real: number;
  syntheticOnly: number;
  /** LLM replies that were unusable (the data-driven candidate was used instead). */
  fallbacks: number;
}

export interface TaskGenerator {
  readonly name: string;
  generate(requests: readonly VariationRequest[], rng: Rng): Promise<Task[]>;
  stats(): GeneratorStats;
  /** Go on counting from a checkpoint's counters (a resumed run reports the whole run's). */
  restoreStats?(stats: GeneratorStats): void;
}

/** Harder for a task the policy mostly solves, easier for one it mostly fails. */
export function directionFor(successRate: number): VariationDirection {
  if (successRate > 0.6) return 'harder';
  if (successRate < 0.4) return 'easier';
  return 'sideways';
}

function emptyGeneratorStats(): GeneratorStats {
  return { requested: 0, made: 0, real: 0, syntheticOnly: 0, fallbacks: 0 };
}

function count(stats: GeneratorStats, task: Task | null): void {
  if (!task) return;
  stats.made++;
  if (task.goal === undefined) stats.syntheticOnly++;
  else stats.real++;
}

export class BufferTaskGenerator implements TaskGenerator {
  readonly name = 'buffer';
  private readonly counters = emptyGeneratorStats();

  /**
   * `siblings`: the tasks whose constraints may be recombined (the buffer's seed tasks);
   * `options.sameKind`: only variations that keep the task's kind (`VaryOptions`).
   */
  constructor(private readonly spec: EnvSpec, private readonly siblings: readonly Task[], private readonly options: VaryOptions = {}) {}

  async generate(requests: readonly VariationRequest[], rng: Rng): Promise<Task[]> {
    const out: Task[] = [];
    for (const r of requests) {
      this.counters.requested++;
      const first = directionFor(r.successRate);
      // The preferred direction first; another when that one cannot be made (nothing left to drop).
      const directions = [first, ...VARIATION_DIRECTIONS.filter((d) => d !== first)];
      let made: Task | null = null;
      for (const d of directions) if (!made) made = this.spec.variation.vary(r.parent, this.siblings, d, rng, this.options);
      count(this.counters, made);
      if (made) out.push(made);
    }
    return out;
  }

  stats(): GeneratorStats {
    return { ...this.counters };
  }

  restoreStats(stats: GeneratorStats): void {
    Object.assign(this.counters, stats);
  }
}

/** The task-generation prompt (system + user), as the paper frames it. */
export function taskPrompt(spec: EnvSpec, request: VariationRequest, candidates: readonly string[]): ChatMessage[] {
  const system =
    `You design training tasks for an agent in ${spec.description}\n` +
    'Given a task the agent sometimes solves and sometimes fails, pick the variation that will teach it most. A good variation is ' +
    'challenging but feasible, meaningfully different from the original (not a rewording), and realistic: written like the ' +
    'original, asking only for things this environment has. You may write your own variation instead of a candidate.\n' +
    'Answer with JSON only: {"task": "<the variation>", "why": "<one sentence>"}';
  const pct = (x: number): string => `${Math.round(x * 100)}%`;
  const user =
    `Original task: ${request.parent.instruction}\n` +
    `Context: the agent succeeds on it ${pct(request.successRate)} of the time (outcome variance ${request.variance.toFixed(3)}); ` +
    `${directionFor(request.successRate) === 'harder' ? 'it is ready for something harder' : directionFor(request.successRate) === 'easier' ? 'it needs something easier to learn from' : 'a different variation of similar difficulty suits it'}.\n` +
    (candidates.length > 0 ? `Candidate variations:\n${candidates.map((c, i) => `${i + 1}. ${c}`).join('\n')}\n` : '') +
    'Which variation is most useful?';
  return [
    { role: 'system', content: system },
    { role: 'user', content: user },
  ];
}

const ANSWER_SCHEMA = JSON.stringify({
  type: 'object',
  properties: { task: { type: 'string' }, why: { type: 'string' } },
  required: ['task'],
});

/** The variation text a reply names, or why there is none. */
export function parseTaskAnswer(raw: string, candidates: readonly string[]): { task: string } | { problem: string } {
  const json = extractJsonObject(raw.trim());
  if (json === null) return { problem: 'no JSON object in the reply' };
  let value: unknown;
  try {
    value = lenientJson(json);
  } catch (error) {
    return { problem: `the JSON does not parse: ${errorMessage(error).slice(0, 100)}` };
  }
  const task = (value as { task?: unknown }).task;
  // A small model sometimes answers with the candidate's number.
  if (typeof task === 'number' && Number.isInteger(task) && task >= 1 && task <= candidates.length) return { task: candidates[task - 1] as string };
  if (typeof task !== 'string') return { problem: '"task" is missing or not text' };
  const text = task.replace(/^\s*\d+\.\s*/, '').trim();
  if (!usableInstruction(text)) return { problem: `"task" is not a usable instruction (${text.length} characters)` };
  return { task: text };
}

export class LlmTaskGenerator implements TaskGenerator {
  readonly name: string;
  private readonly counters = emptyGeneratorStats();
  private readonly candidates: BufferTaskGenerator;
  /** The last few problems with the model's replies, for the person to read. */
  readonly problems: string[] = [];

  constructor(
    private readonly spec: EnvSpec,
    siblings: readonly Task[],
    private readonly client: ChatClient,
    private readonly options: { candidates?: number; temperature?: number } & VaryOptions = {},
  ) {
    this.name = `llm:${client.name}`;
    this.candidates = new BufferTaskGenerator(spec, siblings, { sameKind: options.sameKind === true });
  }

  async generate(requests: readonly VariationRequest[], rng: Rng): Promise<Task[]> {
    const out: Task[] = [];
    for (const r of requests) {
      this.counters.requested++;
      const drafts: Task[] = [];
      for (let i = 0; i < (this.options.candidates ?? 3); i++) drafts.push(...(await this.candidates.generate([r], rng.fork(i))));
      const texts = [...new Set(drafts.map((d) => d.instruction))];
      let made: Task | null = null;
      const reply = await this.client.complete({
        messages: taskPrompt(this.spec, r, texts),
        temperature: this.options.temperature ?? 0.7,
        max_tokens: 200,
        response_format: { type: 'json_object', schema: ANSWER_SCHEMA },
      });
      const answer = parseTaskAnswer(reply.content, texts);
      if ('task' in answer) {
        made = drafts.find((d) => d.instruction === answer.task) ?? this.spec.variation.ground(answer.task, r.parent);
        if (!made) this.note(`"${answer.task.slice(0, 80)}" is the original task or a held-out one`);
      } else this.note(answer.problem);
      if (!made) {
        this.counters.fallbacks++;
        made = drafts[0] ?? null;
      }
      count(this.counters, made);
      if (made) out.push(made);
    }
    return out;
  }

  private note(problem: string): void {
    this.problems.push(problem);
    if (this.problems.length > 20) this.problems.shift();
  }

  stats(): GeneratorStats {
    return { ...this.counters };
  }

  restoreStats(stats: GeneratorStats): void {
    Object.assign(this.counters, stats);
  }
}
