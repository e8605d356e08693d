/**
 * The mutable household of one episode: where the agent stands, what it holds, where each object
 * lies, which receptacles are open, which objects are clean/hot/cool and which lamps are on. It knows
 * the rules (what is admissible, what an admissible operation does and says) and nothing about
 * command strings' synonyms, rewards or step limits, which are `env.ts`'s business.
 *
 * Indices everywhere: objects and receptacles are numbered by their position in the `World`, so a
 * step touches a few small typed arrays instead of rebuilding anything.
 */
import { CLEAN_APPLIANCE, COOL_APPLIANCE, HEAT_APPLIANCE } from './catalog.ts';
import * as say from './feedback.ts';
import type { HomeGoal } from './goal.ts';
import type { World } from './world.ts';

export type Op =
  | { kind: 'goto' | 'open' | 'close' | 'examine-receptacle'; rec: number }
  | { kind: 'take' | 'put' | 'heat' | 'cool' | 'clean'; obj: number; rec: number }
  | { kind: 'use' | 'examine-object'; obj: number }
  | { kind: 'inventory' | 'look' };

/** Where the agent is before it goes anywhere. */
export const MIDDLE = -1;
/** `host` of an object in the agent's hands. */
export const HELD = -1;

const CLEAN = 1;
const HOT = 2;
const COOL = 4;
const ON = 8;

export class Household {
  readonly world: World;
  location = MIDDLE;
  holding = -1;
  private readonly host: Int16Array;
  /** Objects in each receptacle, in the order they are listed (put appends). */
  private readonly contents: number[][];
  private readonly open: Uint8Array;
  private readonly flags: Uint8Array;
  /** Appliance role of each receptacle, precomputed so admissibility needs no string compares. */
  private readonly appliance: ('heat' | 'cool' | 'clean' | null)[];
  private readonly lampsAt: number[][];

  constructor(world: World) {
    this.world = world;
    const recs = world.layout.receptacles;
    this.host = Int16Array.from(world.hosts);
    this.contents = recs.map(() => []);
    this.lampsAt = recs.map(() => []);
    world.hosts.forEach((rec, obj) => {
      (this.contents[rec] as number[]).push(obj);
      if (world.objects[obj]?.toggleable) (this.lampsAt[rec] as number[]).push(obj);
    });
    this.open = new Uint8Array(recs.length);
    this.flags = new Uint8Array(world.objects.length);
    this.appliance = recs.map((rec) =>
      rec.type === HEAT_APPLIANCE ? 'heat' : rec.type === COOL_APPLIANCE ? 'cool' : rec.type === CLEAN_APPLIANCE ? 'clean' : null,
    );
  }

  recName(rec: number): string {
    return (this.world.layout.receptacles[rec] as { name: string }).name;
  }

  objName(obj: number): string {
    return (this.world.objects[obj] as { name: string }).name;
  }

  hostOf(obj: number): number {
    return this.host[obj] as number;
  }

  contentsOf(rec: number): readonly number[] {
    return this.contents[rec] as number[];
  }

  isOpen(rec: number): boolean {
    return this.open[rec] === 1;
  }

  /** Its contents can be seen, taken from and added to. */
  accessible(rec: number): boolean {
    return !(this.world.layout.receptacles[rec] as { openable: boolean }).openable || this.open[rec] === 1;
  }

  isClean(obj: number): boolean {
    return ((this.flags[obj] as number) & CLEAN) !== 0;
  }
  isHot(obj: number): boolean {
    return ((this.flags[obj] as number) & HOT) !== 0;
  }
  isCool(obj: number): boolean {
    return ((this.flags[obj] as number) & COOL) !== 0;
  }
  isOn(obj: number): boolean {
    return ((this.flags[obj] as number) & ON) !== 0;
  }

  /** Every admissible command with what it does, in a stable order. */
  admissible(): [string, Op][] {
    const out: [string, Op][] = [];
    const recs = this.world.layout.receptacles;
    const objs = this.world.objects;
    const here = this.location;
    for (let rec = 0; rec < recs.length; rec++) {
      if (rec !== here) out.push([`go to ${(recs[rec] as { name: string }).name}`, { kind: 'goto', rec }]);
    }
    if (here !== MIDDLE) {
      const name = this.recName(here);
      const r = recs[here] as { openable: boolean };
      if (r.openable) {
        if (this.open[here]) out.push([`close ${name}`, { kind: 'close', rec: here }]);
        else out.push([`open ${name}`, { kind: 'open', rec: here }]);
      }
      if (this.accessible(here)) {
        if (this.holding < 0) {
          for (const obj of this.contents[here] as number[]) {
            if ((objs[obj] as { pickupable: boolean }).pickupable) {
              out.push([`take ${this.objName(obj)} from ${name}`, { kind: 'take', obj, rec: here }]);
            }
          }
        } else {
          out.push([`put ${this.objName(this.holding)} in/on ${name}`, { kind: 'put', obj: this.holding, rec: here }]);
        }
      }
      const role = this.appliance[here] ?? null;
      if (role !== null && this.holding >= 0 && this.canTransform(role, this.holding)) {
        out.push([`${role} ${this.objName(this.holding)} with ${name}`, { kind: role, obj: this.holding, rec: here }]);
      }
      for (const lamp of this.lampsAt[here] as number[]) out.push([`use ${this.objName(lamp)}`, { kind: 'use', obj: lamp }]);
      out.push([`examine ${name}`, { kind: 'examine-receptacle', rec: here }]);
    }
    if (this.holding >= 0) {
      out.push([`examine ${this.objName(this.holding)}`, { kind: 'examine-object', obj: this.holding }]);
    }
    out.push(['inventory', { kind: 'inventory' }], ['look', { kind: 'look' }]);
    return out;
  }

  private canTransform(role: 'heat' | 'cool' | 'clean', obj: number): boolean {
    const o = this.world.objects[obj] as { heatable: boolean; coolable: boolean; cleanable: boolean };
    return role === 'heat' ? o.heatable : role === 'cool' ? o.coolable : o.cleanable;
  }

  /**
   * Carry out an operation that `admissible()` offered and return ALFWorld's feedback. `moveSyntax`
   * picks the newer ALFWorld's wording for a put ("You move the …") when the agent said "move … to".
   */
  apply(op: Op, moveSyntax = false): string {
    switch (op.kind) {
      case 'goto':
        this.location = op.rec;
        return say.arrive(this.recName(op.rec), this.describe(op.rec));
      case 'open':
        this.open[op.rec] = 1;
        return say.opened(this.recName(op.rec), this.describe(op.rec));
      case 'close':
        this.open[op.rec] = 0;
        return say.closed(this.recName(op.rec));
      case 'take': {
        const list = this.contents[op.rec] as number[];
        list.splice(list.indexOf(op.obj), 1);
        this.host[op.obj] = HELD;
        this.holding = op.obj;
        return say.pickedUp(this.objName(op.obj), this.recName(op.rec));
      }
      case 'put':
        (this.contents[op.rec] as number[]).push(op.obj);
        this.host[op.obj] = op.rec;
        this.holding = -1;
        return moveSyntax
          ? say.moved(this.objName(op.obj), this.recName(op.rec))
          : say.put(this.objName(op.obj), this.recName(op.rec));
      case 'heat':
        // Heating undoes cooling and the reverse, as ALFRED's state changes do.
        this.flags[op.obj] = ((this.flags[op.obj] as number) & ~COOL) | HOT;
        return say.transformed('heat', this.objName(op.obj), this.recName(op.rec));
      case 'cool':
        this.flags[op.obj] = ((this.flags[op.obj] as number) & ~HOT) | COOL;
        return say.transformed('cool', this.objName(op.obj), this.recName(op.rec));
      case 'clean':
        this.flags[op.obj] = (this.flags[op.obj] as number) | CLEAN;
        return say.transformed('clean', this.objName(op.obj), this.recName(op.rec));
      case 'use':
        // ALFWorld's lamps only ever turn on; using a lit lamp says so again.
        this.flags[op.obj] = (this.flags[op.obj] as number) | ON;
        return say.turnedOn(this.objName(op.obj));
      case 'examine-receptacle':
        return this.describe(op.rec);
      case 'examine-object': {
        const o = this.world.objects[op.obj] as { toggleable: boolean };
        return say.examineObject({
          name: this.objName(op.obj),
          toggleable: o.toggleable,
          on: this.isOn(op.obj),
          clean: this.isClean(op.obj),
          hot: this.isHot(op.obj),
          cool: this.isCool(op.obj),
        });
      }
      case 'inventory':
        return say.inventory(this.holding < 0 ? null : this.objName(this.holding));
      case 'look':
        return this.look();
    }
  }

  look(): string {
    if (this.location === MIDDLE) return say.lookMiddle(this.world.layout.receptacles.map((r) => r.name));
    return say.lookAt(this.recName(this.location));
  }

  describe(rec: number): string {
    const r = this.world.layout.receptacles[rec] as { name: string; openable: boolean };
    const names = this.accessible(rec) ? (this.contents[rec] as number[]).map((o) => this.objName(o)) : [];
    return say.describeReceptacle(r.name, r.openable, this.open[rec] === 1, names);
  }
}

/**
 * ALFWorld's goal conditions, compiled once per episode into index sets:
 * place tasks need an object of the type (clean/hot/cool where asked) in a receptacle of the target
 * type; the two-object task needs two of them in the same receptacle; the look task needs the agent
 * holding one while standing at the lit lamp of the named type.
 */
export function compileGoal(world: World, goal: HomeGoal): (h: Household) => boolean {
  const candidates: number[] = [];
  world.objects.forEach((o, i) => {
    if (o.type === goal.object) candidates.push(i);
  });
  const isTarget = new Uint8Array(world.layout.receptacles.length);
  world.layout.receptacles.forEach((r, i) => {
    if (r.type === goal.target) isTarget[i] = 1;
  });
  const inTarget = (h: Household, obj: number): boolean => {
    const host = h.hostOf(obj);
    return host >= 0 && isTarget[host] === 1;
  };
  switch (goal.type) {
    case 'pick_and_place':
      return (h) => candidates.some((o) => inTarget(h, o));
    case 'pick_clean_then_place':
      return (h) => candidates.some((o) => h.isClean(o) && inTarget(h, o));
    case 'pick_heat_then_place':
      return (h) => candidates.some((o) => h.isHot(o) && inTarget(h, o));
    case 'pick_cool_then_place':
      return (h) => candidates.some((o) => h.isCool(o) && inTarget(h, o));
    case 'pick_two_obj_and_place':
      return (h) => {
        for (let i = 0; i < candidates.length; i++) {
          const a = h.hostOf(candidates[i] as number);
          if (a < 0 || isTarget[a] !== 1) continue;
          for (let j = i + 1; j < candidates.length; j++) if (h.hostOf(candidates[j] as number) === a) return true;
        }
        return false;
      };
    case 'look_at_obj_in_light': {
      const lamp = world.objects.findIndex((o) => o.toggleable && o.type === goal.lamp);
      if (lamp < 0) return () => false;
      const lampHost = world.hosts[lamp] as number;
      return (h) =>
        h.holding >= 0 &&
        (world.objects[h.holding] as { type: string }).type === goal.object &&
        h.location === lampHost &&
        h.isOn(lamp);
    }
  }
}
