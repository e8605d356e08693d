/**
 * The scripted agents that judge the household and seed the replay buffer: an oracle that reads the
 * goal, rebuilds the world (a pure function of the goal) and follows a shortest plan; a hasty oracle
 * that does the goal's last step before the step that prepares it, sees it not count, and then does it
 * properly; and a random agent that picks uniformly among the admissible commands.
 */
import { UsageError } from '../../core/errors.ts';
import type { Rng } from '../../core/rng.ts';
import type { Agent, Observation, Task } from '../../core/types.ts';
import { CLEAN_APPLIANCE, COOL_APPLIANCE, HEAT_APPLIANCE } from './catalog.ts';
import { taskGoal, type HomeGoal } from './goal.ts';
import { buildWorld, type World } from './world.ts';

/** Command sequences from the middle of the room, tracking where the agent is, what it opened and where it put things. */
class PlanBuilder {
  readonly commands: string[] = [];
  private location = -1;
  private readonly opened = new Set<number>();
  /** Objects moved by this plan, and where they lie now. */
  private readonly movedTo = new Map<number, number>();
  constructor(private readonly world: World) {}

  private rec(i: number): { name: string; openable: boolean } {
    return this.world.layout.receptacles[i] as { name: string; openable: boolean };
  }

  goTo(rec: number): this {
    if (this.location !== rec) this.commands.push(`go to ${this.rec(rec).name}`);
    this.location = rec;
    return this;
  }

  /** Go there and make its contents reachable. */
  reach(rec: number): this {
    this.goTo(rec);
    if (this.rec(rec).openable && !this.opened.has(rec)) {
      this.commands.push(`open ${this.rec(rec).name}`);
      this.opened.add(rec);
    }
    return this;
  }

  take(obj: number): this {
    const host = this.movedTo.get(obj) ?? (this.world.hosts[obj] as number);
    this.reach(host);
    this.commands.push(`take ${this.objName(obj)} from ${this.rec(host).name}`);
    return this;
  }

  put(obj: number, rec: number): this {
    this.reach(rec);
    this.commands.push(`put ${this.objName(obj)} in/on ${this.rec(rec).name}`);
    this.movedTo.set(obj, rec);
    return this;
  }

  transform(verb: 'heat' | 'cool' | 'clean', obj: number, appliance: number): this {
    this.goTo(appliance);
    this.commands.push(`${verb} ${this.objName(obj)} with ${this.rec(appliance).name}`);
    return this;
  }

  use(lamp: number): this {
    this.goTo(this.world.hosts[lamp] as number);
    this.commands.push(`use ${this.objName(lamp)}`);
    return this;
  }

  private objName(i: number): string {
    return (this.world.objects[i] as { name: string }).name;
  }
}

function indicesWhere<T>(items: readonly T[], test: (item: T) => boolean): number[] {
  const out: number[] = [];
  items.forEach((item, i) => {
    if (test(item)) out.push(i);
  });
  return out;
}

const TRANSFORM: Partial<Record<HomeGoal['type'], { verb: 'heat' | 'cool' | 'clean'; appliance: string }>> = {
  pick_clean_then_place: { verb: 'clean', appliance: CLEAN_APPLIANCE },
  pick_heat_then_place: { verb: 'heat', appliance: HEAT_APPLIANCE },
  pick_cool_then_place: { verb: 'cool', appliance: COOL_APPLIANCE },
};

/**
 * How a plan reaches the goal. `shortest`: the fewest commands. `hasty`: the goal's last step first,
 * before what it needs: the object put in place before it is heated, cooled or cleaned; one object put
 * twice where the task wants two; the lamp turned on before the object is in hand. That step earns
 * nothing; the plan then takes the object back and does it properly. The oracle's episodes never show
 * the goal's last step failing for want of its preparation, so a model fitted on them learns that a
 * put of the task's object in its target is a success whatever came before, and a policy trained in
 * its dream is rewarded for skipping the preparation (issue 24: those were most of the home model's
 * false successes). A hasty episode shows the failure and the success side by side.
 */
export type PlanStyle = 'shortest' | 'hasty';

/**
 * A plan for the goal in its starting world, the shortest of its style. The choices that matter (which
 * objects, in which order, which target and appliance instance) are few, so every combination is
 * planned and the shortest kept; ties go to the first in world order, which keeps the agents
 * deterministic. Goals with nothing to prepare (a plain pick and place) get the shortest plan in
 * either style.
 */
export function planGoal(world: World, goal: HomeGoal, style: PlanStyle = 'shortest'): string[] {
  const hasty = style === 'hasty';
  const candidates = indicesWhere(world.objects, (o) => o.type === goal.object && o.pickupable);
  const targets = indicesWhere(world.layout.receptacles, (r) => r.type === goal.target);
  const plans: string[][] = [];

  if (goal.type === 'look_at_obj_in_light') {
    const lamp = world.objects.findIndex((o) => o.toggleable && o.type === goal.lamp);
    if (lamp >= 0) {
      for (const obj of candidates) {
        const plan = new PlanBuilder(world);
        if (hasty) plan.use(lamp);
        plans.push(plan.take(obj).use(lamp).commands);
      }
    }
  } else if (goal.type === 'pick_two_obj_and_place') {
    for (const a of candidates) {
      for (const b of candidates) {
        if (a === b) continue;
        for (const t of targets) {
          const plan = new PlanBuilder(world).take(a).put(a, t);
          if (hasty) plan.take(a).put(a, t);
          plans.push(plan.take(b).put(b, t).commands);
        }
      }
    }
  } else {
    const transform = TRANSFORM[goal.type];
    const appliances = transform ? indicesWhere(world.layout.receptacles, (r) => r.type === transform.appliance) : [-1];
    for (const obj of candidates) {
      for (const app of appliances) {
        for (const t of targets) {
          const plan = new PlanBuilder(world).take(obj);
          if (transform && hasty) plan.put(obj, t).take(obj);
          if (transform) plan.transform(transform.verb, obj, app);
          plans.push(plan.put(obj, t).commands);
        }
      }
    }
  }
  let best = plans[0];
  for (const plan of plans) if (plan.length < (best as string[]).length) best = plan;
  if (best === undefined) throw new UsageError(`no plan reaches the goal of this home task (${goal.type} ${goal.object})`);
  return best;
}

export class HomeOracle implements Agent {
  readonly name: string;
  private plan: string[] = [];
  private next = 0;

  constructor(private readonly style: PlanStyle = 'shortest') {
    this.name = style === 'hasty' ? 'home-hasty' : 'home-oracle';
  }

  reset(task: Task, _first: Observation): void {
    const goal = taskGoal(task);
    this.plan = planGoal(buildWorld(goal), goal, this.style);
    this.next = 0;
  }

  act(_observation: Observation): string {
    // Past the end of the plan the goal has been reached and the episode is over; `look` is a
    // harmless answer should a caller ask anyway.
    return this.plan[this.next++] ?? 'look';
  }
}

export class HomeRandom implements Agent {
  readonly name = 'home-random';
  constructor(private readonly rng: Rng) {}

  reset(_task: Task, _first: Observation): void {}

  act(observation: Observation): string {
    return observation.actions.length > 0 ? this.rng.pick(observation.actions) : 'look';
  }
}
