/**
 * "An environment is one folder and one registry line": a tiny third environment, declared here
 * and nowhere else, goes through the CLI's rollout, buffer seed, experience fit and train in modes
 * real and dream, by the same entry points as shop and home. The lamp room: the instruction names
 * a lamp to switch on; the state lists the lamps; `click[lamp N]` toggles one.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../../src/cli/main.ts';
import { clickAction, matchAdmissible } from '../../../src/core/actions.ts';
import type { Rng } from '../../../src/core/rng.ts';
import { renderState } from '../../../src/core/state.ts';
import type { Agent, Env, Observation, StepResult, Task } from '../../../src/core/types.ts';
import { registerEnvironment } from '../../../src/envs/registry.ts';
import type { EnvDefinition } from '../../../src/envs/spec.ts';
import { capture } from '../../cli-io.ts';

const LAMPS = 4;
const task = (split: string, i: number): Task => ({ id: `lamps-${split}-${i}`, env: 'lamps', instruction: `switch on lamp ${(i % LAMPS) + 1} and nothing else`, difficulty: 1, origin: 'seed', goal: (i % LAMPS) + 1 });
const SPLITS = { train: 40, test: 12 } as const;

class LampRoom implements Env {
  readonly name = 'lamps';
  private on = new Set<number>();
  private goal = 1;
  private task!: Task;
  async reset(t: Task): Promise<Observation> {
    this.task = t;
    this.goal = t.goal as number;
    this.on = new Set();
    return this.observe();
  }
  async step(action: string): Promise<StepResult> {
    const admissible = matchAdmissible(action, this.observe().actions);
    const lamp = admissible === null ? 0 : Number(/lamp (\d+)/.exec(admissible)?.[1] ?? 0);
    if (lamp > 0 && !this.on.delete(lamp)) this.on.add(lamp);
    const won = this.on.size === 1 && this.on.has(this.goal);
    return { observation: this.observe(), reward: won ? 1 : 0, done: won, info: { valid: lamp > 0, won, truncated: false } };
  }
  private observe(): Observation {
    const lamps = Array.from({ length: LAMPS }, (_, i) => i + 1);
    const text = renderState({ header: [['page', 'room'], ['instruction', this.task.instruction]], elements: lamps.map((n) => ({ kind: 'button', text: `lamp ${n} | ${this.on.has(n) ? 'on' : 'off'}` })) });
    return { text, actions: lamps.map((n) => clickAction(`lamp ${n}`)) };
  }
}

const lamps: EnvDefinition = {
  name: 'lamps',
  description: 'A room of four lamps: switch on the one the instruction names.',
  actionSyntax: 'web',
  splits: Object.entries(SPLITS).map(([name, size]) => ({ name, size })),
  testSplit: 'test',
  maxSteps: 6,
  createEnv: () => new LampRoom(),
  tasks: (split) => Array.from({ length: SPLITS[split as keyof typeof SPLITS] ?? 0 }, (_, i) => task(split, i)),
  createOracle: (): Agent => ({ name: 'oracle', reset() {}, act: (o) => o.actions[Number(/lamp (\d)/.exec(o.text.split('\n')[1] ?? '')?.[1] ?? 1) - 1] as string }),
  createRandom: (rng: Rng): Agent => ({ name: 'random', reset() {}, act: (o) => rng.pick(o.actions) }),
  variation: { vary: () => null, ground: () => null },
};

async function cli(...argv: string[]): Promise<Record<string, unknown>> {
  const io = capture();
  const code = await main([...argv, '--json'], io);
  expect(code, io.stderr.join('\n')).toBe(0);
  return JSON.parse(io.stdout.at(-1) as string);
}

describe('a third environment registered in one line', () => {
  let unregister: () => void;
  const dir = mkdtempSync(path.join(tmpdir(), 'lamps-'));
  const buffer = path.join(dir, 'lamps.jsonl');
  const model = path.join(dir, 'lamps.dgx');
  beforeAll(() => { unregister = registerEnvironment(lamps); });
  afterAll(() => unregister());

  it('is listed, and its scripted agents play through rollout with its step limit', async () => {
    const { envs } = (await cli('envs')) as { envs: { name: string }[] };
    expect(envs.map((e) => e.name)).toContain('lamps');
    expect(await cli('rollout', '--env', 'lamps', '--policy', 'oracle', '--episodes', '12', '--seed', '1')).toMatchObject({ env: 'lamps', split: 'test', episodes: 12, successRate: 1, meanSteps: 1 });
    const random = await cli('rollout', '--env', 'lamps', '--policy', 'random', '--episodes', '40', '--seed', '1');
    expect(random.meanSteps).toBeLessThanOrEqual(6);
    expect(random.successRate).toBeLessThan(1);
  });

  it('seeds a buffer, fits the neural experience model on it, and trains in modes real and dream', async () => {
    expect(await cli('buffer', 'seed', '--env', 'lamps', '--episodes', '40', '--mix', 'oracle=0.5,random=0.5', '--seed', '1', '--out', buffer)).toMatchObject({ env: 'lamps', episodes: 40 });
    const fit = await cli('experience', 'fit', '--env', 'lamps', '--buffer', buffer, '--out', model, '--epochs', '2', '--seed', '1', '--backend', 'cpu');
    expect(fit).toMatchObject({ env: 'lamps', epochs: 2 });
    // One iteration each (~100 transitions: an update, an evaluation) on wasm, the CLI's own default:
    // the entry points are what this pins, not learning, and 300 transitions on the cpu backend (the
    // default network's products in plain JS) cost 31 s of CPU against 2 s.
    const small = ['--seed', '1', '--backend', 'wasm', '--eval-every', '0', '--final-eval-episodes', '12'];
    for (const algo of ['ppo', 'grpo']) {
      const real = await cli('train', '--env', 'lamps', '--mode', 'real', '--algo', algo, '--real-budget', '100', ...small);
      expect(real).toMatchObject({ env: 'lamps', mode: 'real', algo, syntheticTransitions: 0, eval: { split: 'test', episodes: 12 } });
      const dream = await cli('train', '--env', 'lamps', '--mode', 'dream', '--algo', algo, '--experience', 'neural', '--model', model, '--buffer', buffer, '--synthetic-budget', '100', ...small);
      expect(dream).toMatchObject({ env: 'lamps', mode: 'dream', algo, realTransitions: 0, eval: { split: 'test', episodes: 12 } });
      expect(dream.syntheticTransitions).toBeGreaterThan(0);
    }
  }, 240_000);
});
