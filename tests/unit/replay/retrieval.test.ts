import { describe, expect, it } from 'vitest';
import { Rng } from '../../../src/core/rng.ts';
import { parseState } from '../../../src/core/state.ts';
import { envSpec } from '../../../src/envs/registry.ts';
import { actionKind, EMBEDDING_DIM, EMBEDDING_VERSION, embedStateAction, embedTask, pageKind } from '../../../src/replay/embed.ts';
import { measureGrounding } from '../../../src/replay/grounding.ts';
import { transitionLine } from '../../../src/replay/jsonl.ts';
import { MemoryReplayStore } from '../../../src/replay/memory-store.ts';
import type { StoredTransition } from '../../../src/replay/store.ts';
import { ReplayBuffer } from '../../../src/replay/retrieval.ts';
import { agentSchedule, parseMix, seedEpisodes } from '../../../src/replay/seed.ts';
import { BLOCK_ROWS, VectorIndex } from '../../../src/replay/vector-index.ts';
import { transition } from './helpers.ts';

function randomUnit(rng: Rng, dim: number): Float32Array {
  const v = Float32Array.from({ length: dim }, () => rng.next() - 0.5);
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
}

describe('the vector index', () => {
  it('returns the exact top-k of a brute-force scan, across block boundaries, with filters', () => {
    const rng = new Rng(3);
    const dim = 13; // not a multiple of the unrolling, on purpose
    const index = new VectorIndex(dim);
    const rows = BLOCK_ROWS + 500;
    const vectors: Float32Array[] = [];
    for (let i = 0; i < rows; i++) {
      const v = randomUnit(rng, dim);
      vectors.push(v);
      index.add(1000 + i, v, { env: i % 3 === 0 ? 'home' : 'shop', source: i % 2 === 0 ? 'real' : 'synthetic', episode: `e${i % 7}` });
    }
    expect(index.count).toBe(rows);
    for (let q = 0; q < 5; q++) {
      const query = randomUnit(rng, dim);
      const scored = vectors.map((v, i) => ({ i, s: v.reduce((a, x, d) => a + x * (query[d] as number), 0) }));
      const keep = (i: number) => i % 3 !== 0 && i % 2 === 0 && i % 7 !== 4;
      const expected = scored.filter(({ i }) => keep(i)).sort((a, b) => b.s - a.s).slice(0, 4);
      const got = index.search(query, 4, { env: 'shop', source: 'real', excludeEpisode: 'e4' });
      expect(got.map((n) => n.id)).toEqual(expected.map(({ i }) => 1000 + i));
      got.forEach((n, j) => expect(n.score).toBeCloseTo(expected[j]?.s as number, 5));
    }
    expect(index.search(randomUnit(rng, dim), 4, { env: 'nowhere' })).toEqual([]);
    expect(() => index.add(1, new Float32Array(dim + 1), { env: 'shop', source: 'real' })).toThrow(RangeError);
  });
});

describe('embeddings', () => {
  it('are deterministic unit vectors that put the same page and action kind close together', () => {
    const results = { text: 'page: results\ninstruction: red shoes\n[1] button: Back to Search\n[2] link: b01 | red running shoes | $20.00', actions: [] };
    const item = { text: 'page: item\ninstruction: red shoes\n[1] button: Buy Now\n[2] option: size | 10', actions: [] };
    const a = embedStateAction('red shoes', results, 'click[b01]');
    expect(a).toHaveLength(EMBEDDING_DIM);
    expect(Math.hypot(...a)).toBeCloseTo(1, 5);
    expect(embedStateAction('red shoes', results, 'click[b01]')).toEqual(a);
    const dot = (x: Float32Array, y: Float32Array) => x.reduce((s, v, i) => s + v * (y[i] as number), 0);
    const sameKind = embedStateAction('blue hat', { ...results, text: results.text.replace('red running shoes', 'blue hat') }, 'click[b01]');
    const otherPage = embedStateAction('red shoes', item, 'click[Buy Now]');
    expect(dot(a, sameKind)).toBeGreaterThan(dot(a, otherPage));
    expect(pageKind(parseState(results.text))).toBe('page results');
    expect(actionKind('click[b01]', parseState(results.text))).toBe('click link');
    expect(actionKind('take mug 1 from cabinet 2', parseState('location: cabinet 2'))).toBe('take');
    expect(Math.hypot(...embedTask({ env: 'home', instruction: 'put a mug in cabinet' }))).toBeCloseTo(1, 5);
  });
});

describe('offline seeding', () => {
  it('parses the mix and plays exact proportions of each agent', () => {
    expect(parseMix('oracle=3,random=1')).toEqual({ oracle: 0.75, random: 0.25 });
    expect(() => parseMix('oracle=0.5,expert=0.5')).toThrow(/seeding agents are: oracle, random/);
    // Weights whose sum overflows, and an agent named twice (it silently took the last weight).
    expect(parseMix('random=1e308,oracle=1e308')).toEqual({ random: 0.5, oracle: 0.5 });
    expect(() => parseMix('oracle=1,random=1,oracle=2')).toThrow(/names oracle twice/);
    expect(() => parseMix('oracle')).toThrow(/must look like/);
    expect(() => parseMix('oracle=0,random=0')).toThrow(/positive weight/);
    const schedule = agentSchedule({ oracle: 0.6, random: 0.4 }, 7, new Rng(1));
    expect(schedule.filter((a) => a === 'oracle')).toHaveLength(4);
    expect(schedule).toHaveLength(7);
  });

  it('records whole episodes: oracle ones end in success, and the history is every earlier action', async () => {
    const spec = envSpec('home');
    const episodes = [];
    for await (const e of seedEpisodes({ spec, episodes: 6, mix: { oracle: 0.5, random: 0.5 }, seed: 4, createdAt: 0 })) episodes.push(e);
    for (const e of episodes) {
      const last = e.transitions.at(-1);
      expect(last?.done).toBe(true);
      if (e.agent === 'oracle') expect(e.won && last?.reward === 1).toBe(true);
      e.transitions.forEach((t, i) => {
        expect(t.history).toEqual(e.transitions.slice(0, i).map((p) => p.action));
        if (i > 0) expect(t.state).toEqual(e.transitions[i - 1]?.next);
      });
    }
    const again = [];
    for await (const e of seedEpisodes({ spec, episodes: 6, mix: { oracle: 0.5, random: 0.5 }, seed: 4, createdAt: 0 })) again.push(e);
    expect(again).toEqual(episodes);
  });
});

/** An inbox's reply form, its elements numbered from `n` on (as far as the page had counted), with what its message box holds. */
function replyForm(instruction: string, n: number, message: string) {
  return {
    text: `title: Inbox\nurl: /index.html\ninstruction: ${instruction}\n[1] heading: Reply\n[2] textbox: #${n} To | value: ${message === '' ? 'empty' : 'kofi@example.org'}\n[3] textbox: #${n + 1} Message | value: ${message === '' ? 'empty' : message}\n[4] button: #${n + 2} Send\n[5] button: #${n + 3} Discard`,
    actions: [`type[#${n} To | ...]`, `type[#${n + 1} Message | ...]`, `click[#${n + 2} Send]`, `click[#${n + 3} Discard]`],
  };
}

describe('embeddings of web pages', () => {
  it('do not read the numbers a page gives its elements, which count up over its life', () => {
    const reply = 'Reply to the e-mail from Kofi Weber about "Homework" with "Fine, thanks".';
    expect(embedStateAction(reply, replyForm(reply, 26, 'Fine, thanks'), 'click[#28 Send]')).toEqual(embedStateAction(reply, replyForm(reply, 20, 'Fine, thanks'), 'click[#22 Send]'));
  });

  it("find a reply's Send the demonstrated reply's, numbered otherwise, before another task's Send of the same number", async () => {
    const demonstrated = 'Reply to the e-mail from Wei Okafor about "Ember notes" with "Dune sounds good".';
    const star = 'Star the e-mail from Omar Usman about "Mango photos".';
    const ours = 'Reply to the e-mail from Goran Weber about "Quartz meeting" with "Coral sounds good".';
    const buffer = await ReplayBuffer.open(new MemoryReplayStore());
    await buffer.add([
      transition(1, { env: 'web', instruction: demonstrated, state: replyForm(demonstrated, 26, 'Dune sounds good'), action: 'click[#28 Send]', reward: 1, done: true }),
      transition(2, { env: 'web', instruction: star, state: replyForm(star, 20, ''), action: 'click[#22 Send]', reward: 0, done: true }),
    ]);
    const [found] = await buffer.nearest([{ instruction: ours, state: replyForm(ours, 20, 'Coral sounds good'), action: 'click[#22 Send]' }], 1);
    expect(found?.[0]?.instruction).toBe(demonstrated);
  });
});

describe('stored vectors', () => {
  // A vector that points nowhere near any transition's own.
  const stray = (): Float32Array => Object.assign(new Float32Array(EMBEDDING_DIM), { 0: 1 });

  it('are used as stored when this embedding made them, and computed again when another did', async () => {
    const probe = transition(1);
    const neighbour = transition(2);
    const nearestTo = async (version: number | undefined): Promise<string | undefined> => {
      const store = new MemoryReplayStore();
      await store.add([
        { ...probe, vector: stray(), ...(version !== undefined ? { vectorVersion: version } : {}) },
        { ...neighbour, vector: embedStateAction(neighbour.instruction, neighbour.state, neighbour.action), vectorVersion: EMBEDDING_VERSION },
      ]);
      const [found] = await (await ReplayBuffer.open(store)).nearest([probe], 1);
      return found?.[0]?.instruction;
    };
    // Trusted: the probe's own transition sits at the stray vector, so its neighbour is nearer.
    expect(await nearestTo(EMBEDDING_VERSION)).toBe(neighbour.instruction);
    // An older embedding's vector (no version, or another) is computed again: the probe finds itself.
    expect(await nearestTo(undefined)).toBe(probe.instruction);
    expect(await nearestTo(EMBEDDING_VERSION - 1)).toBe(probe.instruction);
  });

  it('go with what a buffer adds, and stay out of what leaves it', async () => {
    const store = new MemoryReplayStore();
    const buffer = await ReplayBuffer.open(store);
    const [id] = await buffer.add([transition(3)]);
    const stored = await store.get(id as number);
    expect(stored?.vectorVersion).toBe(EMBEDDING_VERSION);
    expect(stored?.vector).toBeInstanceOf(Float32Array);
    const line = JSON.parse(transitionLine(stored as StoredTransition)) as Record<string, unknown>;
    expect(line).not.toHaveProperty('vector');
    expect(line).not.toHaveProperty('vectorVersion');
    expect(line.instruction).toBe(transition(3).instruction);
  });
});

describe('retrieval that grounds', () => {
  it('on held-out real transitions, at least 90% of the 4 neighbours share the page type and the action kind', async () => {
    for (const env of ['shop', 'home']) {
      const result = await measureGrounding(envSpec(env), { trainEpisodes: 150, heldOutEpisodes: 20 });
      expect(result.heldOutNeighbours).toBeGreaterThan(100);
      expect(result.samePageAndActionKind, env).toBeGreaterThanOrEqual(0.9);
    }
  });

  it('indexes what a store already holds, grows with adds, and can skip the querying episode', async () => {
    const spec = envSpec('shop');
    const store = new MemoryReplayStore();
    const first = await ReplayBuffer.open(store);
    const episodes = [];
    for await (const e of seedEpisodes({ spec, episodes: 10, mix: { oracle: 1 }, seed: 9 })) episodes.push(e);
    for (const e of episodes) await first.add(e.transitions);
    const reopened = await ReplayBuffer.open(store);
    expect(reopened.index.count).toBe(await store.count());
    const probe = episodes[3]?.transitions[1];
    if (!probe) throw new Error('no probe transition');
    const [own] = await reopened.nearest([probe], 1);
    expect(own?.[0]?.episodeId).toBe(probe.episodeId);
    const [others] = await reopened.nearest([probe], 4, { excludeEpisode: probe.episodeId as string });
    expect(others).toHaveLength(4);
    expect(others?.every((t) => t.episodeId !== probe.episodeId)).toBe(true);
  });

  it('reads a batch of neighbours in one request to the store and gives the same object for the same transition', async () => {
    const spec = envSpec('shop');
    const store = new MemoryReplayStore();
    const buffer = await ReplayBuffer.open(store);
    for await (const e of seedEpisodes({ spec, episodes: 6, mix: { oracle: 1 }, seed: 4 })) await buffer.add(e.transitions);
    const asked: number[][] = [];
    const getMany = store.getMany.bind(store);
    store.getMany = (ids) => {
      asked.push([...ids]);
      return getMany(ids);
    };
    const probes = (await store.page({ limit: 5 })).items;
    const first = await buffer.nearest(probes, 3);
    expect(asked).toHaveLength(1);
    // Each transition once, though the probes share neighbours.
    expect(new Set(asked[0]).size).toBe(asked[0]!.length);
    expect(asked[0]!.length).toBeLessThan(15);
    const again = await buffer.nearest(probes, 3);
    expect(asked).toHaveLength(2);
    expect(asked[1]).toEqual([]);
    expect(again).toEqual(first);
    again.forEach((list, q) => list.forEach((t, j) => expect(t).toBe(first[q]![j])));
  });
});
