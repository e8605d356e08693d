/**
 * The web env's scripted agents. The oracle is the task's own (a bundled task's program reads its
 * instance's data and the page); a site without programs has none. The random agent picks
 * uniformly among the admissible actions, filling a `type` template with a proposed text.
 */
import { fillTemplate, isTemplate } from '../../core/actions.ts';
import { UsageError } from '../../core/errors.ts';
import type { Rng } from '../../core/rng.ts';
import type { Agent, Observation, Task } from '../../core/types.ts';
import { proposeTexts } from './queries.ts';
import { isWebGoal, type TaskProgram } from './site.ts';

export class WebOracle implements Agent {
  readonly name = 'oracle';
  private next: ((observation: Observation) => string) | null = null;

  constructor(private readonly programs: Readonly<Record<string, TaskProgram>>, private readonly site: string) {}

  reset(task: Task): void {
    const goal = task.goal;
    if (!isWebGoal(goal)) throw new UsageError(`task ${task.id} has no web goal`);
    const program = this.programs[goal.task];
    if (!program) throw new UsageError(`the site "${this.site}" has no oracle for task "${goal.task}" (only bundled tasks have one)`);
    this.next = program.createOracle(goal.data);
  }

  act(observation: Observation): string {
    if (!this.next) throw new UsageError('the web oracle acts only after reset(task)');
    return this.next(observation);
  }
}

export class WebRandom implements Agent {
  readonly name = 'random';
  private instruction = '';

  constructor(private readonly rng: Rng) {}

  reset(task: Task): void {
    this.instruction = task.instruction;
  }

  act(observation: Observation): string {
    if (observation.actions.length === 0) return 'wait';
    const action = this.rng.pick(observation.actions);
    if (!isTemplate(action)) return action;
    // What a policy could type here: the instruction's texts, else the codes the page shows.
    const texts = proposeTexts(this.instruction, observation.text);
    return fillTemplate(action, texts.length > 0 ? this.rng.pick(texts) : 'text');
  }
}
