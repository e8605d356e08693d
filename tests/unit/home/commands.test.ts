import { describe, expect, it } from 'vitest';
import { parseState } from '../../../src/core/state.ts';
import type { Task } from '../../../src/core/types.ts';
import { listThings } from '../../../src/envs/home/feedback.ts';
import { homeTasks } from '../../../src/envs/home/tasks.ts';
import type { World } from '../../../src/envs/home/world.ts';
import { buildWorld } from '../../../src/envs/home/world.ts';
import {
  fetch,
  firstTask,
  goalOf,
  header,
  isOpenable,
  recName,
  start,
  startContents,
} from './helpers.ts';

/** A train task whose starting world has a receptacle that passes the test. */
function taskWithReceptacle(test: (world: World, rec: number) => boolean): { task: Task; rec: number } {
  for (const task of homeTasks('train')) {
    const world = buildWorld(goalOf(task));
    const rec = world.layout.receptacles.findIndex((_, i) => test(world, i));
    if (rec >= 0) return { task, rec };
  }
  throw new Error('no such receptacle in train');
}

/** A kitchen with microwave, fridge and sink, and an object that can be heated, cooled and cleaned. */
function applianceKitchen(): { task: Task; obj: number } {
  for (const task of homeTasks('train')) {
    const world = buildWorld(goalOf(task));
    const types = new Set(world.layout.receptacles.map((r) => r.type));
    if (!['microwave', 'fridge', 'sinkbasin'].every((t) => types.has(t))) continue;
    const obj = world.objects.findIndex((o) => o.heatable && o.coolable && o.cleanable);
    if (obj >= 0) return { task, obj };
  }
  throw new Error('no such kitchen in train');
}

describe('home commands', () => {
  it('opens with the welcome, the room description and the task, in the abstract state format', async () => {
    const task = firstTask('valid-unseen', () => true);
    const ep = await start(task);
    const state = parseState(ep.first.text);
    const names = ep.world.layout.receptacles.map((r) => r.name);
    expect(state.header.map(([k]) => k)).toEqual(['room', 'task', 'location', 'holding', 'feedback']);
    expect(header(ep.first, 'task')).toBe(task.instruction);
    expect(header(ep.first, 'location')).toBe('middle of the room');
    expect(header(ep.first, 'holding')).toBe('nothing');
    expect(header(ep.first, 'feedback')).toBe(
      `-= Welcome to TextWorld, ALFRED! =- You are in the middle of a room. Looking quickly around you, you see ` +
        `${listThings(names)}. Your task is to: ${task.instruction}`,
    );
    expect(ep.first.actions).toEqual([...names.map((n) => `go to ${n}`), 'inventory', 'look']);
  });

  it('lists things the way TextWorld does', () => {
    expect(listThings([])).toBe('nothing');
    expect(listThings(['apple 1'])).toBe('a apple 1');
    expect(listThings(['apple 1', 'mug 2'])).toBe('a apple 1, and a mug 2');
    expect(listThings(['apple 1', 'mug 2', 'cd 1'])).toBe('a apple 1, a mug 2, and a cd 1');
  });

  it('go to a surface says what is on it and shows each object as an element', async () => {
    const { task, rec } = taskWithReceptacle((w, i) => !isOpenable(w, i) && startContents(w, i).length === 2);
    const ep = await start(task);
    const name = recName(ep.world, rec);
    const [a, b] = startContents(ep.world, rec) as [string, string];
    const result = await ep.step(`go to ${name}`);
    expect(result.info.feedback).toBe(`You arrive at ${name}. On the ${name}, you see a ${a}, and a ${b}.`);
    expect(header(result.observation, 'feedback')).toBe(result.info.feedback);
    expect(header(result.observation, 'location')).toBe(name);
    const texts = parseState(result.observation.text).elements.map((e) => e.text);
    expect(texts.some((t) => t.startsWith(`${a} | on ${name}`))).toBe(true);
    expect(texts.some((t) => t.startsWith(`${b} | on ${name}`))).toBe(true);
    expect(result.observation.actions).not.toContain(`go to ${name}`);
    expect(result.reward).toBe(0);
    expect(result.done).toBe(false);
  });

  it('go to an empty surface says it sees nothing', async () => {
    const { task, rec } = taskWithReceptacle((w, i) => !isOpenable(w, i) && startContents(w, i).length === 0);
    const ep = await start(task);
    const name = recName(ep.world, rec);
    const result = await ep.step(`go to ${name}`);
    expect(result.info.feedback).toBe(`You arrive at ${name}. On the ${name}, you see nothing.`);
  });

  it('a closed receptacle hides its contents until opened, and closes again', async () => {
    const { task, rec } = taskWithReceptacle((w, i) => isOpenable(w, i) && startContents(w, i).length >= 1);
    const ep = await start(task);
    const name = recName(ep.world, rec);
    const inside = startContents(ep.world, rec);

    const arrived = await ep.step(`go to ${name}`);
    expect(arrived.info.feedback).toBe(`You arrive at ${name}. The ${name} is closed.`);
    expect(parseState(arrived.observation.text).elements.map((e) => e.text)).toEqual([`${name} | closed`]);
    expect(arrived.observation.actions).toContain(`open ${name}`);
    expect(arrived.observation.actions).not.toContain(`close ${name}`);
    expect(arrived.observation.actions.some((a) => a.startsWith('take '))).toBe(false);

    const opened = await ep.step(`open ${name}`);
    expect(opened.info.feedback).toBe(`You open the ${name}. The ${name} is open. In it, you see ${listThings(inside)}.`);
    expect(opened.observation.actions).toContain(`close ${name}`);
    expect(opened.observation.actions).toContain(`take ${inside[0] as string} from ${name}`);

    const examined = await ep.step(`examine ${name}`);
    expect(examined.info.feedback).toBe(`The ${name} is open. In it, you see ${listThings(inside)}.`);

    const closed = await ep.step(`close ${name}`);
    expect(closed.info.feedback).toBe(`You close the ${name}.`);
    expect(closed.observation.actions).toContain(`open ${name}`);
    const examinedClosed = await ep.step(`examine ${name}`);
    expect(examinedClosed.info.feedback).toBe(`The ${name} is closed.`);
  });

  it('take picks up one object, inventory reports it, and hands hold only one thing', async () => {
    const { task, rec } = taskWithReceptacle((w, i) => !isOpenable(w, i) && startContents(w, i).filter((n) => !n.includes('lamp')).length >= 2);
    const ep = await start(task);
    const name = recName(ep.world, rec);
    const [first, second] = startContents(ep.world, rec).filter((n) => !n.includes('lamp')) as [string, string];

    expect((await ep.step('inventory')).info.feedback).toBe('You are not carrying anything.');
    await ep.step(`go to ${name}`);
    const taken = await ep.step(`take ${first} from ${name}`);
    expect(taken.info.feedback).toBe(`You pick up the ${first} from the ${name}.`);
    expect(header(taken.observation, 'holding')).toBe(first);
    expect(taken.observation.actions.some((a) => a.startsWith('take '))).toBe(false);
    expect(taken.observation.actions).toContain(`put ${first} in/on ${name}`);
    expect(taken.observation.actions).toContain(`examine ${first}`);

    const second_ = await ep.raw(`take ${second} from ${name}`);
    expect(second_.info.valid).toBe(false);
    expect((await ep.step('inventory')).info.feedback).toBe(`You are carrying: a ${first}.`);
    expect((await ep.step(`examine ${first}`)).info.feedback).toBe(`There's nothing special about ${first}.`);
  });

  it('put accepts "put O in/on R", "put O in R", "put O on R" and "move O to R", matched case- and space-insensitively', async () => {
    const { task, rec } = taskWithReceptacle((w, i) => !isOpenable(w, i) && startContents(w, i).some((n) => !n.includes('lamp')));
    const ep = await start(task);
    const name = recName(ep.world, rec);
    const obj = startContents(ep.world, rec).find((n) => !n.includes('lamp')) as string;
    await ep.step(`go to ${name}`);

    const forms: [string, string][] = [
      [`put ${obj} in/on ${name}`, `You put the ${obj} in/on the ${name}.`],
      [`put ${obj} in ${name}`, `You put the ${obj} in/on the ${name}.`],
      [`put ${obj} on ${name}`, `You put the ${obj} in/on the ${name}.`],
      [`  PUT   ${obj.toUpperCase()}  On\t${name} `, `You put the ${obj} in/on the ${name}.`],
      [`move ${obj} to ${name}`, `You move the ${obj} to the ${name}.`],
    ];
    for (const [command, feedback] of forms) {
      await ep.step(`take ${obj} from ${name}`);
      const result = await ep.raw(command);
      expect(result.info.valid, command).toBe(true);
      expect(result.info.feedback).toBe(feedback);
      expect(header(result.observation, 'holding')).toBe('nothing');
      expect(result.observation.actions).toContain(`take ${obj} from ${name}`);
    }
  });

  it('put into a closed receptacle is not admissible until it is opened', async () => {
    const { task, rec } = taskWithReceptacle((w, i) => isOpenable(w, i) && startContents(w, i).length >= 1);
    const ep = await start(task);
    const name = recName(ep.world, rec);
    const obj = startContents(ep.world, rec)[0] as string;
    await ep.step(`go to ${name}`);
    await ep.step(`open ${name}`);
    await ep.step(`take ${obj} from ${name}`);
    await ep.step(`close ${name}`);
    expect((await ep.raw(`put ${obj} in/on ${name}`)).info.valid).toBe(false);
    await ep.step(`open ${name}`);
    expect((await ep.step(`put ${obj} in/on ${name}`)).info.feedback).toBe(`You put the ${obj} in/on the ${name}.`);
  });

  it('heat, cool and clean work only at their appliance and change what examine says', async () => {
    const { task, obj } = applianceKitchen();
    const ep = await start(task);
    const name = (ep.world.objects[obj] as { name: string }).name;
    const microwave = ep.world.layout.receptacles.find((r) => r.type === 'microwave')?.name as string;
    const fridge = ep.world.layout.receptacles.find((r) => r.type === 'fridge')?.name as string;
    const sink = ep.world.layout.receptacles.find((r) => r.type === 'sinkbasin')?.name as string;
    await fetch(ep, obj);
    expect((await ep.raw(`heat ${name} with ${microwave}`)).info.valid).toBe(false);

    await ep.step(`go to ${microwave}`);
    expect(ep.last.actions).not.toContain(`cool ${name} with ${microwave}`);
    const heated = await ep.step(`heat ${name} with ${microwave}`);
    expect(heated.info.feedback).toBe(`You heat the ${name} using the ${microwave}.`);
    expect(parseState(heated.observation.text).elements.map((e) => e.text)).toContain(`${name} | hot`);
    expect((await ep.step(`examine ${name}`)).info.feedback).toBe(`This is a hot ${name}.`);

    await ep.step(`go to ${fridge}`);
    const cooled = await ep.step(`cool ${name} with ${fridge}`);
    expect(cooled.info.feedback).toBe(`You cool the ${name} using the ${fridge}.`);
    expect((await ep.step(`examine ${name}`)).info.feedback).toBe(`This is a cold ${name}.`);

    await ep.step(`go to ${sink}`);
    const cleaned = await ep.step(`clean ${name} with ${sink}`);
    expect(cleaned.info.feedback).toBe(`You clean the ${name} using the ${sink}.`);
    expect((await ep.step(`examine ${name}`)).info.feedback).toBe(`This is a cool and clean ${name}.`);

    await ep.step(`go to ${microwave}`);
    await ep.step(`heat ${name} with ${microwave}`);
    expect((await ep.step(`examine ${name}`)).info.feedback).toBe(`This is a hot and clean ${name}.`);
  });

  it('heat is not offered for an object that cannot be heated', async () => {
    const { task, rec } = taskWithReceptacle(
      (w, i) =>
        w.layout.receptacles.some((r) => r.type === 'microwave') &&
        !isOpenable(w, i) &&
        startContents(w, i).some((n) => ['knife', 'fork', 'spoon', 'saltshaker'].includes(n.split(' ')[0] as string)),
    );
    const ep = await start(task);
    const name = recName(ep.world, rec);
    const obj = startContents(ep.world, rec).find((n) => ['knife', 'fork', 'spoon', 'saltshaker'].includes(n.split(' ')[0] as string)) as string;
    const microwave = ep.world.layout.receptacles.find((r) => r.type === 'microwave')?.name as string;
    await ep.step(`go to ${name}`);
    await ep.step(`take ${obj} from ${name}`);
    await ep.step(`go to ${microwave}`);
    expect(ep.last.actions.some((a) => a.startsWith('heat '))).toBe(false);
    expect((await ep.raw(`heat ${obj} with ${microwave}`)).info.valid).toBe(false);
  });

  it('use turns on a lamp where it stands', async () => {
    const task = firstTask('train', (g) => g.type === 'look_at_obj_in_light');
    const ep = await start(task);
    const lamp = ep.world.objects.findIndex((o) => o.toggleable && o.type === ep.goal.lamp);
    const lampName = (ep.world.objects[lamp] as { name: string }).name;
    const host = recName(ep.world, ep.world.hosts[lamp] as number);
    expect(ep.first.actions).not.toContain(`use ${lampName}`);
    const arrived = await ep.step(`go to ${host}`);
    expect(parseState(arrived.observation.text).elements.map((e) => e.text)).toContain(`${lampName} | on ${host} | off`);
    const used = await ep.step(`use ${lampName}`);
    expect(used.info.feedback).toBe(`You turn on the ${lampName}.`);
    expect(parseState(used.observation.text).elements.map((e) => e.text)).toContain(`${lampName} | on ${host} | on`);
    expect((await ep.raw(`take ${lampName} from ${host}`)).info.valid).toBe(false);
  });

  it('examine a surface repeats what is on it', async () => {
    const { task, rec } = taskWithReceptacle((w, i) => !isOpenable(w, i) && startContents(w, i).length >= 1);
    const ep = await start(task);
    const name = recName(ep.world, rec);
    await ep.step(`go to ${name}`);
    expect((await ep.step(`examine ${name}`)).info.feedback).toBe(
      `On the ${name}, you see ${listThings(startContents(ep.world, rec))}.`,
    );
  });

  it('look describes the room from the middle and the receptacle faced elsewhere', async () => {
    const task = firstTask('valid-seen', () => true);
    const ep = await start(task);
    const names = ep.world.layout.receptacles.map((r) => r.name);
    const fromMiddle = await ep.step('look');
    expect(fromMiddle.info.feedback).toBe(`You are in the middle of a room. Looking quickly around you, you see ${listThings(names)}.`);
    await ep.step(`go to ${names[0] as string}`);
    expect((await ep.step('look')).info.feedback).toBe(`You are facing the ${names[0] as string}. Next to it, you see nothing.`);
  });
});
