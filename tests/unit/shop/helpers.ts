import { parseState, type AbstractState } from '../../../src/core/state.ts';
import type { Env, StepResult, Task } from '../../../src/core/types.ts';
import { envSpec } from '../../../src/envs/registry.ts';
import type { Product } from '../../../src/envs/shop/catalog.ts';
import type { ShopGoal } from '../../../src/envs/shop/goal.ts';
import { shopWorld } from '../../../src/envs/shop/world.ts';

export const world = shopWorld();

export function firstTask(split: 'train' | 'test' = 'test', index = 0): Task {
  return world.tasks[split][index] as Task;
}

export function goalOf(task: Task): ShopGoal {
  return task.goal as ShopGoal;
}

export function targetOf(task: Task): Product {
  return world.catalog.byId.get(goalOf(task).productId) as Product;
}

export function state(result: StepResult | { text: string }): AbstractState {
  return parseState('observation' in result ? result.observation.text : result.text);
}

export function pageOf(result: StepResult | { text: string }): string | undefined {
  return state(result).header.find(([k]) => k === 'page')?.[1];
}

/** A shop env as the registry makes it: with the step limit (15 unless `maxSteps`). */
export function newEnv(maxSteps?: number): Env {
  return envSpec('shop').createEnv(maxSteps === undefined ? {} : { maxSteps });
}
