import { envSpec } from '../../../src/envs/registry.ts';
import { describe, expect, it } from 'vitest';
import { EnvStateError } from '../../../src/core/errors.ts';
import { Rng } from '../../../src/core/rng.ts';
import type { Observation } from '../../../src/core/types.ts';
import type { World } from '../../../src/envs/home/world.ts';
import { fetch, firstTask, start, type Episode } from './helpers.ts';

const VERBS = ['go to', 'open', 'close', 'take', 'put', 'move', 'use', 'heat', 'cool', 'clean', 'examine', 'inventory', 'look'];

/** Every command the household's grammar could form in this world, admissible here or not. */
function everyCommand(world: World): string[] {
  const recs = world.layout.receptacles.map((r) => r.name);
  const objs = world.objects.map((o) => o.name);
  const out = ['inventory', 'look'];
  for (const r of recs) out.push(`go to ${r}`, `open ${r}`, `close ${r}`, `examine ${r}`);
  for (const o of objs) {
    out.push(`use ${o}`, `examine ${o}`);
    for (const r of recs) out.push(`take ${o} from ${r}`, `put ${o} in/on ${r}`, `heat ${o} with ${r}`, `cool ${o} with ${r}`, `clean ${o} with ${r}`);
  }
  return out;
}

function randomText(rng: Rng, length: number, alphabet: string): string {
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[rng.int(alphabet.length)];
  return out;
}

function unicodeGarbage(rng: Rng): string {
  let out = '';
  const n = rng.range(1, 40);
  for (let i = 0; i < n; i++) {
    const pick = rng.int(6);
    if (pick === 0) out += String.fromCharCode(0xd800 + rng.int(0x800)); // lone surrogates
    else if (pick === 1) out += String.fromCodePoint(0x1f300 + rng.int(0x300)); // emoji
    else if (pick === 2) out += ['\u200b', '\u202e', '\ufeff', '\u0000', '\u2028', '\n', '\t'][rng.int(7)];
    else if (pick === 3) out += String.fromCharCode(0x400 + rng.int(0x500)); // Cyrillic, Hebrew, Arabic…
    else out += String.fromCharCode(0x20 + rng.int(0x5f));
  }
  return out;
}

/** A malformed or inadmissible action of one of several kinds, chosen by the seeded `rng`. */
function malformed(rng: Rng, world: World, observation: Observation): string {
  const admissible = new Set(observation.actions);
  const notAdmissible = everyCommand(world).filter((c) => !admissible.has(c));
  const recs = world.layout.receptacles.map((r) => r.name);
  switch (rng.int(8)) {
    case 0:
      return rng.pick(['', ' ', '\n\t  ', '\u00a0']);
    case 1:
      // Very long: 10K characters, sometimes starting with a valid command.
      return (rng.chance(0.5) ? rng.pick(observation.actions) : '') + randomText(rng, 10_000, 'abc xyz 123[]()');
    case 2:
      return unicodeGarbage(rng);
    case 3:
      return rng.pick(['click[', 'search[mug', 'go to [cabinet 1', '((take', ']]]', '{put}', 'go to cabinet 1)', '[look']);
    case 4:
      // A valid verb with a target that does not exist.
      return `${rng.pick(VERBS)} ${rng.pick(['unicorn 1', 'cabinet 99', 'mug 0', 'fridge', 'the mug', '1'])}`;
    case 5:
      return `take ${rng.pick(['moon 1', 'apple 42'])} from ${rng.pick(recs)}`;
    case 6:
      // A well-formed command that exists in this world but is not admissible here, sometimes mangled
      // in case and spacing (which must not make it admissible).
      return rng.chance(0.5) ? rng.pick(notAdmissible) : `  ${rng.pick(notAdmissible).toUpperCase().replace(/ /g, '   ')} `;
    default:
      return rng.pick(['go', 'go to', 'take', 'put', 'use', 'heat', 'open', 'examine', 'put  in/on ', 'move to', 'help']);
  }
}

async function fuzzFrom(ep: Episode, rng: Rng, count: number): Promise<void> {
  const before = ep.last;
  for (let i = 0; i < count; i++) {
    const action = malformed(rng, ep.world, before);
    const result = await ep.env.step(action);
    const label = JSON.stringify(action.slice(0, 80));
    expect(result.info.valid, label).toBe(false);
    expect(result.reward, label).toBe(0);
    expect(result.done, label).toBe(false);
    expect(result.info.won, label).toBe(false);
    expect(result.observation.text, label).toBe(before.text);
    expect(result.observation.actions, label).toEqual(before.actions);
  }
}

describe('home malformed actions', () => {
  it('1,000 fuzzed malformed actions never throw, give 0 and leave the observation exactly as it was', async () => {
    const rng = new Rng('home-fuzz');
    // From the start, at a closed receptacle, and holding an object at an open one.
    const task = firstTask('valid-unseen', (g) => g.type === 'pick_heat_then_place');
    const ep = await start(task, { maxSteps: 1_000_000 });
    await fuzzFrom(ep, rng, 400);

    const closed = ep.world.layout.receptacles.findIndex((r) => r.openable);
    await ep.step(`go to ${(ep.world.layout.receptacles[closed] as { name: string }).name}`);
    await fuzzFrom(ep, rng, 300);

    const obj = ep.world.objects.findIndex((o) => o.type === ep.goal.object);
    await fetch(ep, obj);
    await fuzzFrom(ep, rng, 300);
  });

  it('a non-string action is invalid, not an exception', async () => {
    const ep = await start(firstTask('train', () => true));
    const result = await ep.env.step(undefined as unknown as string);
    expect(result.info.valid).toBe(false);
    expect(result.observation).toEqual(ep.first);
    expect(result.info.explanation).toBe('Nothing happens: "(a undefined value)" does not apply here, so the reward is 0.');
  });

  it('invalid actions count toward the step limit but never change the text', async () => {
    const ep = await start(firstTask('train', () => true), { maxSteps: 3 });
    expect((await ep.raw('dance')).done).toBe(false);
    expect((await ep.raw('dance')).done).toBe(false);
    const last = await ep.raw('dance');
    expect(last.done).toBe(true);
    expect(last.info.truncated).toBe(true);
    expect(last.observation).toEqual(ep.first);
  });

  it('step before reset and step after done throw EnvStateError', async () => {
    const env = envSpec('home').createEnv({ maxSteps: 1 });
    await expect(env.step('look')).rejects.toBeInstanceOf(EnvStateError);
    await env.reset(firstTask('train', () => true));
    expect((await env.step('look')).done).toBe(true);
    await expect(env.step('look')).rejects.toBeInstanceOf(EnvStateError);
  });
});
