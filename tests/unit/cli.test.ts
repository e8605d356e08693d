import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { readPolicyHeader } from '../../src/policy/dgp.ts';
import { capture } from '../cli-io.ts';

const lastJson = (lines: string[]) => JSON.parse(lines.at(-1)!);

describe('the CLI', () => {
  it('envs --json lists each environment with its split sizes', async () => {
    const io = capture();
    expect(await main(['envs', '--json'], io)).toBe(0);
    const { envs } = lastJson(io.stdout);
    expect(envs.map((e: { name: string }) => e.name)).toEqual(['shop', 'home', 'web']);
    expect(envs[0].splits).toEqual({ train: 1500, test: 500 });
    expect(envs[1].splits).toHaveProperty('valid-unseen');
    expect(envs[2].splits).toEqual({ train: 5000 * 30, test: 30 * 30 });
  });

  it('--site makes a folder of pages the web env for the command, and names what is wrong with it', async () => {
    const io = capture();
    expect(await main(['envs', '--json', '--site', 'examples/sites/page-globals'], io)).toBe(0);
    expect(lastJson(io.stdout).envs[2]).toMatchObject({ name: 'web', splits: { train: 1000, test: 100 } });
    const bad = capture();
    expect(await main(['envs', '--site', 'examples/sites/page-globals', '--tasks', 'nope'], bad)).toBe(2);
    expect(bad.stderr.join('')).toMatch(/--tasks: the site "page-globals" has no task "nope"/);
    // The bundled suite is back after the command.
    const after = capture();
    await main(['envs', '--json'], after);
    expect(lastJson(after.stdout).envs[2].splits).toEqual({ train: 5000 * 30, test: 30 * 30 });
  });

  it('rollout --json prints the summary as the last stdout line and progress on stderr', async () => {
    const io = capture();
    const code = await main(['rollout', '--env', 'shop', '--policy', 'oracle', '--split', 'test', '--episodes', '10', '--seed', '3', '--json'], io);
    expect(code).toBe(0);
    const summary = lastJson(io.stdout);
    expect(Object.keys(summary).sort()).toEqual(
      ['digest', 'env', 'episodes', 'invalidActionRate', 'meanScore', 'meanSteps', 'policy', 'split', 'stepsPerSec', 'successRate'].sort(),
    );
    expect(summary).toMatchObject({ env: 'shop', policy: 'oracle', split: 'test', episodes: 10, successRate: 1 });
    expect(io.stderr.at(-1)).toMatch(/10\/10 episodes/);
  });

  it('defaults the split to the held-out one', async () => {
    const io = capture();
    await main(['rollout', '--env', 'home', '--policy', 'random', '--episodes', '2', '--json'], io);
    expect(lastJson(io.stdout).split).toBe('valid-unseen');
  });

  it.each([
    [['rollout', '--env', 'moon', '--policy', 'oracle'], /--env must be one of: shop, home/],
    [['rollout', '--env', 'shop'], /--policy is required/],
    [['rollout', '--env', 'shop', '--policy', 'oracle', '--split', 'valid-seen'], /--split must be one of: train, test/],
    [['rollout', '--env', 'shop', '--policy', 'oracle', '--episodes', '0'], /--episodes must be an integer ≥ 1/],
    [['rollout', '--env', 'shop', '--policy', 'oracle', '--frobnicate'], /Unknown option '--frobnicate'/],
    [['launch'], /unknown command "launch"/],
  ])('exits 2 with a specific message for %j', async (argv, message) => {
    const io = capture();
    expect(await main(argv, io)).toBe(2);
    expect(io.stderr.join('\n')).toMatch(message);
    expect(io.stdout).toEqual([]);
  });
});

describe('the CLI: train and saved policies', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'dreamgym-cli-'));

  it('train writes a .dgp whose greedy actions rollout --policy reproduces', async () => {
    const out = path.join(dir, 'tiny.dgp');
    const io = capture();
    const args = ['train', '--env', 'shop', '--mode', 'real', '--algo', 'grpo', '--real-budget', '200', '--seed', '4'];
    expect(await main([...args, '--out', out, '--final-eval-episodes', '6', '--json'], io)).toBe(0);
    const result = lastJson(io.stdout);
    expect(result).toMatchObject({ env: 'shop', mode: 'real', algo: 'grpo', backend: 'wasm', syntheticTransitions: 0 });
    expect(result.config).toMatchObject({ algo: 'grpo', groupSize: 8, lossAverage: 'step' }); // the settings the run used
    expect(result.realTransitions).toBeGreaterThan(100);
    expect(result.realTransitions).toBeLessThanOrEqual(200);
    expect(result.eval).toMatchObject({ split: 'test', episodes: 6 });
    expect(io.stderr.some((line) => line.startsWith('iter 1:'))).toBe(true);

    const replay = capture();
    expect(await main(['rollout', '--env', 'shop', '--policy', out, '--episodes', '6', '--seed', '4', '--json'], replay)).toBe(0);
    const evaluated = lastJson(replay.stdout);
    expect(evaluated.actionsDigest).toBe(result.eval.actionsDigest);
    expect(evaluated.successRate).toBe(result.eval.successRate);

    // A damaged copy is refused with what is wrong, before any episode runs.
    const broken = path.join(dir, 'broken.dgp');
    writeFileSync(broken, readFileSync(out).subarray(0, 5000));
    const refused = capture();
    expect(await main(['rollout', '--env', 'shop', '--policy', broken, '--json'], refused)).toBe(1);
    expect(refused.stderr.join('\n')).toMatch(/truncated/);
    expect(refused.stdout).toEqual([]);
    const wrongEnv = capture();
    expect(await main(['rollout', '--env', 'home', '--policy', out], wrongEnv)).toBe(2);
    expect(wrongEnv.stderr.join('\n')).toMatch(/policy for "shop", not "home" \(add --transfer to play it here zero-shot\)/);
  }, 120_000);

  it('train --init starts from a saved policy, of this env or another, and rollout --transfer plays one of another env', async () => {
    // A shop policy, started from on home: with --iterations 0 the run is its starting policy, evaluated.
    const source = path.join(dir, 'init-source.dgp');
    expect(await main(['train', '--env', 'shop', '--mode', 'real', '--algo', 'grpo', '--real-budget', '200', '--seed', '4', '--out', source, '--final-eval-episodes', '2', '--json'], capture())).toBe(0);
    const home = ['train', '--env', 'home', '--mode', 'real', '--algo', 'grpo', '--real-budget', '100', '--iterations', '0', '--seed', '4', '--final-eval-episodes', '8', '--json'];
    const io = capture();
    const transferred = path.join(dir, 'home-from-shop.dgp');
    expect(await main([...home, '--init', source, '--out', transferred], io)).toBe(0);
    const started = lastJson(io.stdout);
    // By content too: the source file's own weights digest, which a path that later holds another policy would not match.
    const sourceDigest = readPolicyHeader(readFileSync(source)).weightsSha256;
    expect(started.initialPolicy).toEqual({ name: source, weightsSha256: sourceDigest, env: 'shop', algorithm: 'grpo', mode: 'real' });
    // The saved policy's card says what it started from.
    expect(readPolicyHeader(readFileSync(transferred)).training).toMatchObject({ initialPolicy: { env: 'shop', algorithm: 'grpo', mode: 'real', weightsSha256: sourceDigest } });
    const transfer = capture();
    expect(await main(['rollout', '--env', 'home', '--policy', source, '--transfer', '--episodes', '8', '--seed', '4', '--json'], transfer)).toBe(0);
    expect(lastJson(transfer.stdout)).toMatchObject({ trainedOn: 'shop', episodes: 8, actionsDigest: started.eval.actionsDigest });
    // The seed's own network is another policy.
    const fresh = capture();
    expect(await main(home, fresh)).toBe(0);
    expect(lastJson(fresh.stdout).initialPolicy).toBeUndefined();
    expect(lastJson(fresh.stdout).eval.actionsDigest).not.toBe(started.eval.actionsDigest);

    const broken = path.join(dir, 'init-broken.dgp');
    writeFileSync(broken, readFileSync(source).subarray(0, 3000));
    const demos = path.join(dir, 'init-demos.jsonl');
    expect(await main(['buffer', 'seed', '--env', 'shop', '--episodes', '2', '--mix', 'oracle=1', '--seed', '4', '--out', demos], capture())).toBe(0);
    for (const [argv, message] of [
      [[...home, '--init', broken], /--init .*init-broken\.dgp: .*truncated/],
      [[...home, '--init', path.join(dir, 'policy.json')], /--init must name a \.dgp policy file/],
      // Cloning reads --init too (demonstrations cloned into a pretrained policy).
      [['train', '--env', 'shop', '--mode', 'bc', '--buffer', demos, '--init', broken], /--init .*init-broken\.dgp: .*truncated/],
      [['rollout', '--env', 'home', '--policy', 'random', '--transfer'], /--transfer plays a saved policy of another environment/],
    ] as const) {
      const refused = capture();
      expect(await main([...argv], refused), argv.join(' ')).not.toBe(0);
      expect(refused.stderr.join('\n')).toMatch(message);
    }
  }, 120_000);

  it('without --episodes, rollout --policy plays the whole split in the order training evaluated it', async () => {
    const out = path.join(dir, 'whole-split.dgp');
    const io = capture();
    expect(await main(['train', '--env', 'shop', '--algo', 'ppo', '--real-budget', '100', '--seed', '5', '--out', out, '--json'], io)).toBe(0);
    const trained = lastJson(io.stdout);
    expect(trained.eval.episodes).toBe(500);
    const replay = capture();
    expect(await main(['rollout', '--env', 'shop', '--policy', out, '--json'], replay)).toBe(0);
    expect(lastJson(replay.stdout)).toMatchObject({ episodes: 500, actionsDigest: trained.eval.actionsDigest });
  }, 180_000);

  it.each([
    [['train', '--env', 'shop', '--algo', 'ppo'], /--real-budget is required/],
    [['train', '--env', 'shop', '--algo', 'ppo', '--real-budget', '0'], /--real-budget must be an integer ≥ 1/],
    [['train', '--env', 'shop', '--algo', 'a2c', '--real-budget', '10'], /--algo must be one of: ppo, grpo/],
    [['train', '--env', 'shop', '--mode', 'sim', '--algo', 'ppo', '--real-budget', '10'], /--mode must be one of: real, dream/],
    [['train', '--env', 'shop', '--mode', 'dream', '--algo', 'ppo', '--real-budget', '10'], /--mode dream trains with 0 real transitions/],
    [['train', '--env', 'shop', '--mode', 'dream', '--algo', 'ppo'], /--mode dream needs --synthetic-budget/],
    [['train', '--env', 'shop', '--mode', 'dream', '--algo', 'ppo', '--synthetic-budget', '10'], /--experience is required \(one of: neural, knn, http\)/],
    [['train', '--env', 'shop', '--mode', 'dream', '--algo', 'ppo', '--synthetic-budget', '10', '--experience', 'llm'], /--experience http needs --endpoint URL/],
    [['train', '--env', 'shop', '--mode', 'dream', '--algo', 'ppo', '--synthetic-budget', '10', '--experience', 'knn', '--buffer', '/nonexistent/x.jsonl'], /does not exist \(make one with: buffer seed/],
    [['train', '--env', 'shop', '--algo', 'ppo', '--real-budget', '10', '--experience', 'knn'], /go with --mode dream/],
    [['train', '--env', 'shop', '--algo', 'ppo', '--real-budget', '10', '--set', 'epochs=0'], /--set epochs must be a positive integer/],
    [['train', '--env', 'shop', '--algo', 'ppo', '--real-budget', '10', '--set', 'groupSize=4'], /"groupSize" is not a numeric ppo setting/],
    [['experience', 'eval', '--env', 'shop', '--experience', 'knn', '--buffer', 'x.jsonl'], /--heldout N is required/],
    // Refused before the buffer is read: x.jsonl does not exist.
    [['experience', 'eval', '--env', 'shop', '--experience', 'knn', '--buffer', 'x.jsonl', '--heldout', '5', '--split', 'valid'], /--split must be one of: train, test/],
    [['experience', 'eval', '--env', 'shop', '--experience', 'knn', '--buffer', 'x.jsonl', '--heldout', '5', '--steps', 'steps.json'], /--steps steps.json: the scored steps are written as JSON lines; name a FILE.jsonl/],
    [['experience', 'fit'], /--env is required/],
    [['experience', 'fit', '--env', 'shop', '--buffer', 'x.jsonl', '--out', 'x.dgp'], /--out FILE.dgx is required/],
    [['experience', 'refit'], /unknown experience subcommand "refit"; use fit or eval/],
    [['train', '--env', 'shop', '--mode', 'dream', '--algo', 'grpo', '--synthetic-budget', '10', '--experience', 'neural', '--buffer', 'x.jsonl'], /--experience neural needs --model FILE.dgx/],
    [['train', '--env', 'shop', '--mode', 'dream', '--algo', 'grpo', '--synthetic-budget', '10', '--experience', 'neural', '--model', '/nonexistent.dgx'], /nonexistent.dgx does not exist; fit one with: experience fit/],
    [['serve', '--experience', 'llm'], /serve answers with --experience knn/],
    [['train', '--env', 'shop', '--algo', 'ppo', '--real-budget', '10', '--out', 'policy.json'], /--out must name a .dgp file/],
    [['train', '--env', 'shop', '--algo', 'ppo', '--real-budget', '10', '--backend', 'tpu'], /unknown backend "tpu"/],
    [['train', '--env', 'shop', '--algo', 'ppo', '--real-budget', '10', '--lr', 'fast'], /--lr must be a number in/],
    [['train', '--env', 'shop', '--algo', 'ppo', '--real-budget', '10', '--lr-schedule', 'cosine'], /--lr-schedule must be one of: constant, linear/],
    [['train', '--env', 'shop', '--algo', 'ppo', '--real-budget', '10', '--loss-average', 'trajectory'], /--loss-average is a GRPO setting/],
    [['train', '--env', 'shop', '--algo', 'grpo', '--real-budget', '10', '--loss-average', 'token'], /--loss-average must be one of: step, trajectory/],
    [['rollout', '--env', 'shop', '--policy', '/no/such/file.dgp'], /cannot read --policy/],
  ])('refuses %j with exit 2 and says why', async (argv, message) => {
    const io = capture();
    expect(await main(argv, io)).toBe(2);
    expect(io.stderr.join('\n')).toMatch(message);
  });
});

describe('the CLI: experience eval, step by step', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'dreamgym-eval-steps-'));

  it('--steps writes every scored step, and they add up to the report; --split plays another split', async () => {
    const buffer = path.join(dir, 'shop.jsonl');
    expect(await main(['buffer', 'seed', '--env', 'shop', '--episodes', '20', '--seed', '2', '--out', buffer], capture())).toBe(0);
    const steps = path.join(dir, 'steps.jsonl');
    const io = capture();
    expect(await main(['experience', 'eval', '--env', 'shop', '--experience', 'knn', '--buffer', buffer, '--heldout', '40', '--split', 'train', '--seed', '3', '--steps', steps, '--json'], io)).toBe(0);
    const report = lastJson(io.stdout);
    expect(report.heldout).toMatchObject({ split: 'train', transitions: 40 });
    const lines = readFileSync(steps, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(lines).toHaveLength(40);
    expect(lines[0]).toMatchObject({ step: 0, real: { done: expect.any(Boolean) }, predicted: { reward: expect.any(Number) } });
    expect(lines.filter((l) => l.real.success).length).toBe(report.success.real);
    expect(lines.filter((l) => l.predicted.success).length).toBe(report.success.predicted);
    expect(lines.filter((l) => l.real.success && l.predicted.success).length).toBe(Math.round((report.success.recall ?? 0) * report.success.real));
    // Played on train: its tasks, not the test split's.
    const { envSpec } = await import('../../src/envs/registry.ts');
    const trainIds = new Set(envSpec('shop').tasks('train').map((t) => t.id));
    expect(lines.every((l) => trainIds.has(l.taskId))).toBe(true);
  }, 120_000);
});

describe('the CLI: sim-to-real and the curriculum', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'dreamgym-s2r-'));

  it('train --mode s2r dreams, then spends at most its real budget, with the curriculum on by default', async () => {
    const buffer = path.join(dir, 'shop.jsonl');
    expect(await main(['buffer', 'seed', '--env', 'shop', '--episodes', '30', '--seed', '2', '--out', buffer], capture())).toBe(0);
    const io = capture();
    const args = ['train', '--env', 'shop', '--mode', 's2r', '--algo', 'grpo', '--synthetic-budget', '300', '--real-budget', '150', '--buffer', buffer, '--experience', 'knn'];
    expect(await main([...args, '--seed', '1', '--final-eval-episodes', '5', '--set', 'epochs=1', '--json'], io)).toBe(0);
    const result = lastJson(io.stdout);
    expect(result).toMatchObject({ mode: 's2r', curriculum: { generator: 'buffer', lambda: 0.25, grouping: 'task' }, dream: { experience: 'knn', reasoning: true } });
    expect(result.realTransitions).toBeLessThanOrEqual(150);
    expect(result.syntheticTransitions).toBeLessThanOrEqual(300);
    expect(io.stderr.join('\n')).toMatch(/curriculum λ=0\.25/);
    expect(io.stderr.some((l) => /synthetic, .*by variance/.test(l))).toBe(true);
    expect(io.stderr.some((l) => /\/150 real/.test(l))).toBe(true);
  }, 120_000);

  it.each([
    [['--mode', 's2r', '--algo', 'ppo', '--buffer', 'x.jsonl', '--experience', 'knn'], /--mode s2r needs --synthetic-budget/],
    [['--mode', 'real', '--algo', 'ppo', '--real-budget', '10', '--reasoning', 'off'], /--reasoning goes with --mode dream or s2r/],
    [['--mode', 'real', '--algo', 'ppo', '--real-budget', '10', '--lambda', '0.5'], /--lambda, --exploration, --curriculum-outcome and --variations set the curriculum/],
    [['--mode', 'real', '--algo', 'ppo', '--real-budget', '10', '--curriculum', 'maybe'], /--curriculum/],
    [['--mode', 'real', '--algo', 'ppo', '--real-budget', '10', '--curriculum', 'on', '--lambda', '2'], /--lambda must be a number in \[0, 1\]/],
    [['--mode', 'dream', '--algo', 'ppo', '--synthetic-budget', '10', '--real-budget', '5'], /use --mode s2r/],
  ])('refuses %j with a clear message', async (extra, message) => {
    const io = capture();
    expect(await main(['train', '--env', 'shop', ...extra], io)).toBe(2);
    expect(io.stderr.join('\n')).toMatch(message);
  });
});

describe('the CLI: the curriculum with an LLM backend', () => {
  it('asks the experience model\'s endpoint for task variations through the task-generation prompt', async () => {
    const { startChatServer } = await import('../../src/experience/llm/chat-server.ts');
    const { protocolAnswerer } = await import('../../src/experience/serve-answer.ts');
    const { KnnExperienceModel } = await import('../../src/experience/knn.ts');
    const { seededBuffer } = await import('./experience/fixtures.ts');
    const dir = mkdtempSync(path.join(tmpdir(), 'dreamgym-llm-curriculum-'));
    const bufferFile = path.join(dir, 'shop.jsonl');
    expect(await main(['buffer', 'seed', '--env', 'shop', '--episodes', '30', '--seed', '2', '--out', bufferFile], capture())).toBe(0);
    const steps = protocolAnswerer(new KnnExperienceModel(), await seededBuffer('shop', 30, 2), 3);
    const taskPrompts: string[] = [];
    // One endpoint, two prompts: experience steps are answered by kNN, task requests pick the last candidate.
    const server = await startChatServer({
      model: 'knn',
      answer: async (request) => {
        const user = request.messages.find((m) => m.role === 'user')?.content ?? '';
        if (!request.messages[0]?.content.startsWith('You design training tasks')) return steps(request);
        taskPrompts.push(user);
        const candidates = [...user.matchAll(/^\d+\. (.*)$/gm)].map((m) => m[1]);
        return { content: JSON.stringify({ task: candidates.at(-1), why: 'a harder variation' }) };
      },
    });
    try {
      const io = capture();
      const args = ['train', '--env', 'shop', '--mode', 'dream', '--algo', 'grpo', '--synthetic-budget', '400', '--buffer', bufferFile, '--experience', 'llm', '--endpoint', server.url, '--model', 'knn', '--framing', 'single'];
      expect(await main([...args, '--seed', '2', '--final-eval-episodes', '4', '--set', 'epochs=1', '--json'], io)).toBe(0);
      const result = lastJson(io.stdout);
      expect(result.curriculum.generator).toMatch(/^llm:http\//);
      expect(taskPrompts.length).toBeGreaterThan(0);
      expect(taskPrompts[0]).toMatch(/^Original task: /);
      expect(result.curriculum.generatorStats).toMatchObject({ requested: taskPrompts.length, fallbacks: 0 });
      expect(result.curriculum.generatorStats.made).toBeGreaterThan(0);
    } finally {
      await server.close();
    }
  }, 120_000);
});
