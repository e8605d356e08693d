import { describe, expect, it } from 'vitest';
import { Rng } from '../../../src/core/rng.ts';
import type { ChatClient, ChatRequest, ChatResponse } from '../../../src/experience/llm/chat.ts';
import { LlmExperienceModel } from '../../../src/experience/llm/llm-model.ts';
import { OUTPUT_SCHEMA, extractJsonObject, parseOutput, renderAnswer } from '../../../src/experience/output.ts';
import { MAX_SHOWN_REPLY, type ExperienceInput } from '../../../src/experience/types.ts';
import { shopSearchStep } from './fixtures.ts';

const RESULTS = ['page: results', 'instruction: buy a red mug', 'query: red mug', '[1] button: Back to Search', '[2] text: Page 1 (Total results: 2)', '[3] link: b01 | red mug | $9.99', '[4] link: b02 | blue mug | $7.50'].join('\n');
const GOOD = { reasoning: 'searching lists mugs', next_state: RESULTS, actions: ['click[Back to Search]', 'click[b01]', 'click[b02]'], reward: 0, done: false };

describe('parsing an experience model reply', () => {
  it('takes a clean answer as it is', () => {
    const parsed = parseOutput(JSON.stringify(GOOD), 'web');
    expect(parsed).toMatchObject({ ok: true, repairs: [] });
    if (!parsed.ok) return;
    expect(parsed.prediction).toEqual({ reasoning: GOOD.reasoning, next: { text: RESULTS, actions: GOOD.actions }, reward: 0, done: false, valid: true });
  });

  it('repairs what is repairable and says what it repaired', () => {
    const prose = `Sure! Here is the prediction:\n\`\`\`json\n${JSON.stringify({ ...GOOD, reward: '0', done: 'false' }).replace('"done"', ' "done"')}\n\`\`\`\nHope that helps.`;
    const parsed = parseOutput(prose, 'web');
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.repairs).toEqual(expect.arrayContaining(['JSON taken from surrounding text', 'reward written as a string', 'done written as a string']));
    expect(parsed.prediction.reward).toBe(0);

    const trailing = parseOutput(`{"reasoning": "x", "next_state": ${JSON.stringify(RESULTS)}, "actions": ["click[b01]",], "reward": 0, "done": false,}`, 'web');
    expect(trailing).toMatchObject({ ok: true, repairs: expect.arrayContaining(['JSON syntax mended']) });

    const misnumbered = parseOutput(JSON.stringify({ ...GOOD, next_state: RESULTS.replace('[3] link', '[7] link') }), 'web');
    expect(misnumbered).toMatchObject({ ok: true, repairs: expect.arrayContaining(['elements renumbered']) });

    const clamped = parseOutput(JSON.stringify({ ...GOOD, reward: 3, done: true }), 'web');
    expect(clamped).toMatchObject({ ok: true, prediction: { reward: 1 }, repairs: expect.arrayContaining(['reward clamped to [0, 1]']) });
  });

  it('takes the page\'s clickable elements as the admissible actions of a web state', () => {
    const wrong = parseOutput(JSON.stringify({ ...GOOD, actions: ['CLICK[b01]', 'click[not there]', 'search[mugs]'] }), 'web');
    expect(wrong.ok && wrong.prediction.next.actions).toEqual(['click[Back to Search]', 'click[b01]', 'click[b02]']);
    const missing = parseOutput(JSON.stringify({ ...GOOD, actions: undefined }), 'web');
    expect(missing).toMatchObject({ ok: true, repairs: expect.arrayContaining(['actions derived from the state']) });
  });

  it('says what is wrong with an answer it cannot use', () => {
    expect(parseOutput('I think the page changes.', 'web')).toEqual({ ok: false, problem: 'no JSON object in the reply' });
    expect(parseOutput('{"reasoning": "x", "next_state": "page: item"', 'web')).toEqual({ ok: false, problem: 'no JSON object in the reply' });
    expect(parseOutput(JSON.stringify({ ...GOOD, reward: 'lots' }), 'web')).toMatchObject({ ok: false, problem: expect.stringMatching(/^reward: /) });
    expect(parseOutput(JSON.stringify({ ...GOOD, next_state: '' }), 'web')).toMatchObject({ ok: false, problem: expect.stringMatching(/next_state/) });
    expect(parseOutput(JSON.stringify({ ...GOOD, next_state: 'this is not a state\nat all' }), 'web')).toMatchObject({ ok: false, problem: expect.stringMatching(/not in the state format/) });
    expect(parseOutput(JSON.stringify({ ...GOOD, next_state: 'page: results\ntext only', actions: [] }), 'household')).toMatchObject({ ok: false });
    expect(parseOutput('x'.repeat(70_000), 'web')).toMatchObject({ ok: false, problem: expect.stringMatching(/over the 64000 limit/) });
  });

  it('finds a balanced object even with braces inside strings', () => {
    expect(extractJsonObject('noise {"a": "}{", "b": {"c": 1}} tail')).toBe('{"a": "}{", "b": {"c": 1}}');
    expect(extractJsonObject('no object')).toBeNull();
  });

  it('renders an answer that parses back to the same prediction', () => {
    const parsed = parseOutput(JSON.stringify(GOOD), 'web');
    if (!parsed.ok) throw new Error(parsed.problem);
    expect(parseOutput(renderAnswer(parsed.prediction), 'web')).toMatchObject({ ok: true, prediction: parsed.prediction });
    expect(Object.keys(OUTPUT_SCHEMA.properties)[0]).toBe('reasoning'); // reason first, then answer
  });
});

/** Malformed replies of the kinds small models produce, seeded. */
function malformedReply(rng: Rng, valid: string): string {
  const kind = rng.int(12);
  switch (kind) {
    case 0:
      return valid.slice(0, rng.int(valid.length)); // cut off mid-answer (max_tokens)
    case 1:
      return valid.replace(/"/g, rng.chance(0.5) ? "'" : '');
    case 2:
      return JSON.stringify({ ...GOOD, next_state: rng.int(1000) });
    case 3:
      return JSON.stringify([GOOD]);
    case 4:
      return 'null';
    case 5:
      return Array.from({ length: rng.int(300) }, () => String.fromCharCode(32 + rng.int(95))).join('');
    case 6:
      return JSON.stringify({ ...GOOD, reward: rng.chance(0.5) ? 'NaN' : null });
    case 7:
      return JSON.stringify({ ...GOOD, done: 'maybe' });
    case 8:
      return `{"reasoning": "${'deep '.repeat(rng.int(20000))}`;
    case 9:
      return JSON.stringify({ ...GOOD, next_state: 'garbage line\n[1] link: x' });
    case 10:
      return '{'.repeat(rng.int(50)) + '}'.repeat(rng.int(50));
    default:
      return JSON.stringify({ ...GOOD, next_state: 'page: results\n[1] text: nothing to click', done: false });
  }
}

/** A chat client that replies malformed text, and on some retries a usable answer. */
class ScriptedClient implements ChatClient {
  readonly name = 'scripted';
  readonly maxConcurrency = 3;
  calls = 0;
  readonly requests: ChatRequest[] = [];
  constructor(private readonly reply: (call: number, request: ChatRequest) => string) {}
  async complete(request: ChatRequest): Promise<ChatResponse> {
    this.requests.push(request);
    return { content: this.reply(this.calls++, request) };
  }
}

describe('an LLM experience model that answers in prose', () => {
  it('ends the step in the failure state with the reason and the start of its last reply', async () => {
    const { input } = await shopSearchStep();
    const prose = 'The search would show several pairs of shoes. '.repeat(30);
    const model = new LlmExperienceModel({ client: new ScriptedClient(() => prose), maxRetries: 1, framing: 'single' });
    const [prediction] = await model.predict([input]);
    expect(prediction).toMatchObject({ valid: false, problem: expect.stringMatching(/could not be used after 2 attempts: no JSON object in the reply/) });
    expect(prediction?.reply).toBe(`${prose.slice(0, MAX_SHOWN_REPLY)}…`);
  });
});

describe('1,000 malformed replies through the LLM experience model', () => {
  it('never throws, retries a bounded number of times, and ends in the failure state with reward 0', async () => {
    const { input } = await shopSearchStep();
    const rng = new Rng('malformed');
    const valid = JSON.stringify(GOOD);
    const fixedOnRetry = new Set<number>();
    const client = new ScriptedClient((call) => {
      // Every seventh call is a usable answer: some steps recover on a retry.
      if (call % 7 === 6) {
        fixedOnRetry.add(call);
        return valid;
      }
      return malformedReply(rng, valid);
    });
    const model = new LlmExperienceModel({ client, maxRetries: 2, framing: 'single' });
    const inputs: ExperienceInput[] = Array.from({ length: 1000 }, () => input);
    const predictions = await model.predict(inputs);
    expect(predictions).toHaveLength(1000);
    const stats = model.stats();
    const failures = predictions.filter((p) => !p.valid);
    for (const p of failures) {
      expect(p).toMatchObject({ reward: 0, done: true, valid: false, next: { actions: [] } });
      expect(p.next.text).toMatch(/^status: failure/);
      expect(p.problem).toMatch(/could not be used after 3 attempts/);
      // What the model said last comes with it (its start), for the Experience view to show.
      expect(typeof p.reply).toBe('string');
      expect((p.reply as string).length).toBeLessThanOrEqual(MAX_SHOWN_REPLY + 1);
    }
    for (const p of predictions.filter((q) => q.valid)) expect(p.next.text).toBe(RESULTS);
    expect(failures.length).toBeGreaterThan(500);
    expect(predictions.length - failures.length).toBeGreaterThan(100);
    expect(client.calls).toBeLessThanOrEqual(3 * 1000);
    expect(stats).toMatchObject({ predictions: 1000, invalidOutputs: failures.length, retries: client.calls - 1000 });
    // A retry tells the model what was wrong, since the same request would get the same reply.
    const retry = client.requests.find((r) => r.messages.length > 2);
    expect(retry?.messages.at(-1)?.content).toMatch(/^Your reply could not be used: .+Answer again with only the JSON object\.$/);
    expect(client.requests[0]?.response_format).toEqual({ type: 'json_object', schema: JSON.stringify(OUTPUT_SCHEMA) });
  });
});
