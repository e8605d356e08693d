/**
 * A scripted agent (an oracle, a person) that keeps every action of its own a policy could not
 * have chosen: one missing from the candidates a policy is offered in that state
 * (core/queries.ts `expandActions`), say a text the env never proposes. A task its script wins
 * only that way, no policy can win.
 */
import { expandActions } from '../../../src/core/queries.ts';
import type { Agent, Observation, Task } from '../../../src/core/types.ts';
import type { EnvSpec } from '../../../src/envs/spec.ts';

export class OfferedOnly implements Agent {
  readonly name: string;
  readonly unoffered: string[] = [];
  private instruction = '';

  constructor(
    private readonly agent: Agent,
    private readonly spec: Pick<EnvSpec, 'proposeQueries'>,
  ) {
    this.name = agent.name;
  }

  reset(task: Task, first: Observation): void {
    this.instruction = task.instruction;
    this.agent.reset(task, first);
  }

  act(observation: Observation): string {
    const action = this.agent.act(observation);
    if (!expandActions(observation, this.instruction, this.spec.proposeQueries).includes(action)) this.unoffered.push(action);
    return action;
  }
}
