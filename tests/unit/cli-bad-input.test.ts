/**
 * Bad input on the command line is refused before any work starts: exit code 2, one error that
 * names the flag, no stack trace, no progress (no episode played, no server bound) and no file
 * written. Absurd numbers, unwritable output paths, and flags or arguments a command would ignore.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { capture } from '../cli-io.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Directories named like the files a command writes: an output path that is a directory. */
const DIRECTORIES = ['isdir.dgp', 'isdir.dgx', 'isdir.json', 'isdir.jsonl'];

const root = mkdtempSync(path.join(tmpdir(), 'dreamgym-bad-input-'));
const BUFFER = path.join(root, 'seeded.jsonl');

let seeded: { size: number; mtimeMs: number };

beforeAll(async () => {
  const io = capture();
  expect(await main(['buffer', 'seed', '--env', 'shop', '--episodes', '6', '--seed', '1', '--out', BUFFER], io)).toBe(0);
  expect(await main(['buffer', 'seed', '--env', 'shop', '--episodes', '3', '--mix', 'oracle=1', '--seed', '1', '--out', ORACLE_BUFFER], io)).toBe(0);
  seeded = { size: statSync(BUFFER).size, mtimeMs: statSync(BUFFER).mtimeMs };
  writeFileSync(EXISTING_CHECKPOINT, 'DGCF');
});

const ROLLOUT = ['rollout', '--env', 'shop', '--policy', 'oracle'];
const TRAIN = ['train', '--env', 'shop', '--algo', 'grpo'];
const REAL = [...TRAIN, '--mode', 'real', '--real-budget', '100'];
const DREAM = () => [...TRAIN, '--mode', 'dream', '--synthetic-budget', '100', '--experience', 'knn', '--buffer', BUFFER];
const S2R = () => [...TRAIN, '--mode', 's2r', '--synthetic-budget', '100', '--experience', 'knn', '--buffer', BUFFER];
const LLM = () => [...TRAIN, '--mode', 'dream', '--synthetic-budget', '100', '--experience', 'llm', '--endpoint', 'http://127.0.0.1:9/v1', '--model', 'm', '--buffer', BUFFER];
const NEURAL = () => [...TRAIN, '--mode', 'dream', '--synthetic-budget', '100', '--experience', 'neural', '--model', path.join(root, 'model.dgx'), '--buffer', BUFFER];
const SEED = ['buffer', 'seed', '--env', 'shop', '--seed', '1'];
const EVAL = () => ['experience', 'eval', '--env', 'shop', '--experience', 'knn', '--buffer', BUFFER];
const FIT = () => ['experience', 'fit', '--env', 'shop', '--buffer', BUFFER];
const SERVE = () => ['serve', '--experience', 'knn', '--buffer', BUFFER];
const OFFLINE = (mode: 'bc' | 'dpo', buffer = BUFFER) => ['train', '--env', 'shop', '--mode', mode, '--buffer', buffer];
/** A checkpoint some earlier run left (its bytes are not read before the refusal). */
const EXISTING_CHECKPOINT = path.join(root, 'existing.dgc');
/** Only successes: nothing for DPO to prefer them to. */
const ORACLE_BUFFER = path.join(root, 'oracle.jsonl');

/** `{dir}` in an argument is the case's own empty directory (holding only DIRECTORIES). */
type Case = [label: string, argv: () => string[], message: RegExp];

const CASES: Case[] = [
  // rollout
  ['rollout --episodes 1e99', () => [...ROLLOUT, '--episodes', '1e99'], /--episodes must be an integer ≥ 1 and ≤ 1,000,000/],
  ['rollout --episodes ten', () => [...ROLLOUT, '--episodes', 'ten'], /--episodes must be an integer .*got "ten"/],
  ['rollout --episodes 0', () => [...ROLLOUT, '--episodes', '0'], /--episodes must be an integer ≥ 1/],
  ['rollout --episodes 2.5', () => [...ROLLOUT, '--episodes', '2.5'], /--episodes must be an integer/],
  ['rollout --episodes 0x3 (hexadecimal)', () => [...ROLLOUT, '--episodes', '0x3'], /--episodes must be an integer .*got "0x3"/],
  // The message quotes what was typed, not the neighbour a double rounds it to (…992).
  ['rollout --seed beyond 2^53', () => [...ROLLOUT, '--seed', '9007199254740993'], /--seed must be an integer ≥ 0 and ≤ 9,007,199,254,740,991, got "9007199254740993"/],
  ['rollout --seed given twice', () => [...ROLLOUT, '--seed', '1', '--episodes', '2', '--seed', '2'], /--seed is given twice \("1", then "2"\); give it once/],
  ['train --set epochs=0x8 (hexadecimal)', () => [...REAL, '--set', 'epochs=0x8'], /--set epochs must be a positive integer .*got "0x8"/],
  ['train --checkpoint-every 0x1e', () => [...REAL, '--checkpoint', '{dir}/run.dgc', '--checkpoint-every', '0x1e'], /--checkpoint-every must be a number of seconds .*got "0x1e"/],
  ['train --algo given twice', () => [...REAL, '--algo', 'ppo'], /--algo is given twice \("grpo", then "ppo"\)/],
  ['buffer seed --out given twice', () => [...SEED, '--episodes', '2', '--out', path.join(root, 'a.jsonl'), '--out', path.join(root, 'b.jsonl')], /--out is given twice/],
  ['rollout --seed=-1', () => [...ROLLOUT, '--seed=-1'], /--seed must be an integer ≥ 0 and ≤ 9,007,199,254,740,991/],
  ['rollout --max-steps 1e9', () => [...ROLLOUT, '--max-steps', '1e9'], /--max-steps must be an integer ≥ 1 and ≤ 10,000/],
  ['rollout --split nope', () => [...ROLLOUT, '--split', 'nope'], /--split must be one of: train, test/],
  ['rollout --backend with a scripted policy', () => [...ROLLOUT, '--backend', 'cpu'], /--backend goes with --policy FILE\.dgp/],
  ['rollout with a positional argument', () => [...ROLLOUT, 'extra'], /Unexpected argument 'extra'/],
  ['rollout --episodes -5 (read as a flag)', () => [...ROLLOUT, '--episodes', '-5'], /--episodes/],

  // train, mode real
  ['train --real-budget 1e99', () => [...TRAIN, '--real-budget', '1e99'], /--real-budget must be an integer ≥ 1 and ≤ 100,000,000/],
  ['train --real-budget ten', () => [...TRAIN, '--real-budget', 'ten'], /--real-budget must be an integer/],
  // An empty flag is said in words, as the app says an empty number field ("got \"\"" said nothing).
  ['train --real-budget= (empty)', () => [...TRAIN, '--real-budget='], /--real-budget must be an integer ≥ 1 and ≤ 100,000,000, but it is empty$/],
  ['rollout --split "" (empty)', () => [...ROLLOUT, '--split', ''], /--split must be one of: train, test, but it is empty$/],
  ['train --seed beyond 2^53', () => [...REAL, '--seed', '9007199254740993'], /--seed must be an integer ≥ 0 and ≤ 9,007,199,254,740,991/],
  ['train --iterations 1e12', () => [...REAL, '--iterations', '1e12'], /--iterations must be an integer ≥ 0 and ≤ 1,000,000/],
  ['train --epochs with mode real', () => [...REAL, '--epochs', '3'], /--epochs is the budget of --mode bc and dpo; PPO\/GRPO's passes over each update are --set epochs=N/],
  ['train --eval-every 1e12', () => [...REAL, '--eval-every', '1e12'], /--eval-every must be an integer/],
  ['train --eval-episodes 1e9', () => [...REAL, '--eval-every', '1', '--eval-episodes', '1e9'], /--eval-episodes must be an integer ≥ 1 and ≤ 1,000,000/],
  ['train --eval-episodes without --eval-every', () => [...REAL, '--eval-episodes', '5'], /--eval-episodes sizes the evaluations during training: add --eval-every/],
  ['train --final-eval-episodes 1e9', () => [...REAL, '--final-eval-episodes', '1e9'], /--final-eval-episodes must be an integer/],
  ['train --train-max-steps 1e9', () => [...REAL, '--train-max-steps', '1e9'], /--train-max-steps must be an integer/],
  ['train --lr 2', () => [...REAL, '--lr', '2'], /--lr must be a number in \[1e-7, 1\]/],
  ['train --lambda 2', () => [...REAL, '--curriculum', 'on', '--lambda', '2'], /--lambda must be a number in \[0, 1\]/],
  ['train --exploration=-1', () => [...REAL, '--curriculum', 'on', '--exploration=-1'], /--exploration must be a number in \[0, 1\]/],
  ['train --exploration -1 (read as a flag)', () => [...REAL, '--curriculum', 'on', '--exploration', '-1'], /--exploration/],
  ['train --set epochs=1e99', () => [...REAL, '--set', 'epochs=1e99'], /--set epochs must be a positive integer ≤ 1,000,000/],
  ['train --set epochs=abc', () => [...REAL, '--set', 'epochs=abc'], /--set epochs must be a positive integer ≤ 1,000,000, got "abc"/],
  ['train --set learningRate=0 (as --lr 0)', () => [...REAL, '--set', 'learningRate=0'], /--set learningRate must be a number in \[1e-7, 1\] \(as --lr\), got "0"/],
  ['train --set maxGradNorm=0 (learns nothing)', () => [...REAL, '--set', 'maxGradNorm=0'], /--set maxGradNorm must be a number > 0, got "0"/],
  ['train --set clip=0', () => [...REAL, '--set', 'clip=0'], /--set clip must be a number > 0/],
  ['train --set entropyCoef=-1', () => [...REAL, '--set', 'entropyCoef=-1'], /--set entropyCoef must be a number ≥ 0/],
  ['train --history with another ending', () => [...REAL, '--history', '{dir}/h.txt'], /--history must name a \.json \(the whole result\), \.csv or \.jsonl \(the curve\) file, got ".*h\.txt"/],
  ['train --out where no file can be made (/proc)', () => [...REAL, '--out', '/proc/policy.dgp'], /--out \/proc\/policy\.dgp cannot be written: making a file in \/proc failed/],
  ['train --checkpoint over another run without --resume', () => [...REAL, '--checkpoint', EXISTING_CHECKPOINT], /--checkpoint .*existing\.dgc already holds a run: add --resume to go on from it, or remove the file/],
  ['train --mode real --buffer', () => [...REAL, '--buffer', BUFFER], /--buffer goes with --mode dream or s2r/],
  ['train --mode real --k', () => [...REAL, '--k', '3'], /--k goes with --mode dream or s2r/],
  ['train --mode real --experience', () => [...REAL, '--experience', 'knn'], /--synthetic-budget and --experience go with --mode dream or s2r/],
  ['train --mode real --endpoint', () => [...REAL, '--endpoint', 'http://127.0.0.1:9/v1'], /--endpoint goes with --mode dream or s2r/],
  ['train --mode real --concurrency', () => [...REAL, '--concurrency', '2'], /--concurrency goes with --mode dream or s2r/],
  ['train --mode real --lambda (no curriculum)', () => [...REAL, '--lambda', '0.5'], /--lambda, --exploration, --curriculum-outcome and --variations set the curriculum/],
  ['train --mode real --variations (no curriculum)', () => [...REAL, '--variations', 'same-kind'], /--variations set the curriculum; drop them or use --curriculum on/],
  ['train --curriculum-outcome wins', () => [...REAL, '--curriculum', 'on', '--curriculum-outcome', 'wins'], /--curriculum-outcome must be one of: success, return/],
  ['train --variations all', () => [...REAL, '--curriculum', 'on', '--variations', 'all'], /--variations must be one of: any, same-kind/],
  ['train --mode real --reasoning', () => [...REAL, '--reasoning', 'off'], /--reasoning goes with --mode dream or s2r/],
  ['train --mode real --imagine', () => [...REAL, '--imagine', 'sample'], /--imagine goes with --mode dream or s2r/],
  ['train --loss-average with ppo', () => ['train', '--env', 'shop', '--algo', 'ppo', '--real-budget', '100', '--loss-average', 'step'], /--loss-average is a GRPO setting/],
  ['train --out in a missing directory', () => [...REAL, '--out', '{dir}/missing/policy.dgp'], /--out .*missing\/policy\.dgp: the directory .* does not exist/],
  ['train --out a directory', () => [...REAL, '--out', '{dir}/isdir.dgp'], /--out .*isdir\.dgp is a directory/],
  ['train --history in a missing directory', () => [...REAL, '--history', '{dir}/missing/history.json'], /--history .*does not exist/],
  ['train --history a directory', () => [...REAL, '--history', '{dir}/isdir.json'], /--history .*isdir\.json is a directory/],
  ['train with a positional argument', () => [...REAL, 'extra'], /Unexpected argument 'extra'/],

  // train, modes dream and s2r
  ['train --synthetic-budget=-5', () => [...TRAIN, '--mode', 'dream', '--synthetic-budget=-5', '--experience', 'knn', '--buffer', BUFFER], /--synthetic-budget must be an integer ≥ 1/],
  ['train --synthetic-budget -5 (read as a flag)', () => [...TRAIN, '--mode', 'dream', '--synthetic-budget', '-5', '--experience', 'knn', '--buffer', BUFFER], /--synthetic-budget/],
  ['train --synthetic-budget 1e99', () => [...TRAIN, '--mode', 'dream', '--synthetic-budget', '1e99', '--experience', 'knn', '--buffer', BUFFER], /--synthetic-budget must be an integer ≥ 1 and ≤ 100,000,000/],
  ['train --mode s2r --real-budget 1e99', () => [...S2R(), '--real-budget', '1e99'], /--real-budget must be an integer ≥ 1 and ≤ 100,000,000/],
  ['train --mode dream --real-budget 5', () => [...DREAM(), '--real-budget', '5'], /drop --real-budget/],
  ['train --k 1000', () => [...DREAM(), '--k', '1000'], /--k must be an integer ≥ 0 and ≤ 16/],
  ['train --k=-1', () => [...DREAM(), '--k=-1'], /--k must be an integer/],
  ['train --lambda 2 (dream)', () => [...DREAM(), '--lambda', '2'], /--lambda must be a number in \[0, 1\]/],
  ['train --reasoning maybe', () => [...DREAM(), '--reasoning', 'maybe'], /--reasoning must be one of: on, off/],
  ['train --imagine dream', () => [...DREAM(), '--imagine', 'dream'], /--imagine must be one of: sample, likeliest/],
  ['train --experience knn --concurrency', () => [...DREAM(), '--concurrency', '2'], /--concurrency does not apply with --experience knn/],
  ['train --experience knn --timeout-ms', () => [...DREAM(), '--timeout-ms', '1000'], /--timeout-ms does not apply with --experience knn/],
  ['train --experience knn --api-key', () => [...DREAM(), '--api-key', 'secret'], /--api-key does not apply with --experience knn/],
  ['train --experience knn --framing', () => [...DREAM(), '--framing', 'single'], /--framing does not apply with --experience knn/],
  ['train --experience knn --endpoint', () => [...DREAM(), '--endpoint', 'http://127.0.0.1:9/v1'], /--endpoint goes with --experience http, not knn/],
  ['train --experience knn --model', () => [...DREAM(), '--model', 'shop.dgx'], /--model goes with --experience neural \(a FILE\.dgx\) or http \(the served model's NAME\), not knn/],
  ['train --experience neural --concurrency', () => [...NEURAL(), '--concurrency', '2'], /--concurrency does not apply with --experience neural/],
  ['train --experience neural --framing', () => [...NEURAL(), '--framing', 'single'], /--framing does not apply with --experience neural/],
  ['train --experience llm --concurrency 0', () => [...LLM(), '--concurrency', '0'], /--concurrency must be an integer ≥ 1 and ≤ 256/],
  ['train --experience llm --timeout-ms 1e15', () => [...LLM(), '--timeout-ms', '1e15'], /--timeout-ms must be an integer ≥ 1 and ≤ 86,400,000/],
  ['train --experience llm --framing both', () => [...LLM(), '--framing', 'both'], /--framing must be one of: multi-round, single/],

  // train, modes bc and dpo
  ['train --mode bc without --buffer', () => ['train', '--env', 'shop', '--mode', 'bc'], /--mode bc trains on a replay buffer's real episodes: --buffer FILE\.jsonl is required \(make one with: buffer seed --env shop --episodes 200 --mix oracle=0\.4,noisy=0\.3,random=0\.3/],
  ['train --mode dpo with a missing --buffer', () => OFFLINE('dpo', '{dir}/nothing.jsonl'), /--buffer .*nothing\.jsonl does not exist/],
  ['train --mode bc --algo', () => [...OFFLINE('bc'), '--algo', 'grpo'], /--algo does not apply with --mode bc \(it trains with its own loss\)/],
  ['train --mode bc --real-budget', () => [...OFFLINE('bc'), '--real-budget', '100'], /--mode bc takes no environment transition/],
  ['train --mode dpo --synthetic-budget', () => [...OFFLINE('dpo'), '--synthetic-budget', '100'], /--mode dpo takes no environment transition/],
  ['train --mode bc --iterations', () => [...OFFLINE('bc'), '--iterations', '3'], /--iterations does not apply with --mode bc: its budget is --epochs N/],
  ['train --mode bc --set', () => [...OFFLINE('bc'), '--set', 'epochs=2'], /--set is a PPO\/GRPO setting and does not apply with --mode bc/],
  ['train --mode dpo --lr-schedule', () => [...OFFLINE('dpo'), '--lr-schedule', 'linear'], /--lr-schedule is a PPO\/GRPO setting/],
  ['train --mode bc --beta', () => [...OFFLINE('bc'), '--beta', '0.5'], /--beta does not apply with --mode bc/],
  ['train --mode dpo --beta 0', () => [...OFFLINE('dpo'), '--beta', '0'], /--beta must be a number > 0 and ≤ 100, got 0/],
  ['train --mode dpo --beta 1e9', () => [...OFFLINE('dpo'), '--beta', '1e9'], /--beta must be a number > 0 and ≤ 100/],
  ['train --mode bc --epochs 0', () => [...OFFLINE('bc'), '--epochs', '0'], /--epochs must be an integer ≥ 1 and ≤ 100,000, got 0/],
  ['train --mode bc --experience', () => [...OFFLINE('bc'), '--experience', 'knn'], /--experience does not apply with --mode bc/],
  ['train --mode bc --k', () => [...OFFLINE('bc'), '--k', '3'], /--k does not apply with --mode bc/],
  ['train --mode dpo --curriculum', () => [...OFFLINE('dpo'), '--curriculum', 'on'], /--curriculum does not apply with --mode dpo/],
  ['train --mode bc --train-max-steps', () => [...OFFLINE('bc'), '--train-max-steps', '5'], /--train-max-steps does not apply with --mode bc/],
  ['train --mode bc --eval-episodes without --eval-every', () => [...OFFLINE('bc'), '--eval-episodes', '5'], /--eval-episodes sizes the evaluations during training/],
  ['train --mode bc --out a directory', () => [...OFFLINE('bc'), '--out', '{dir}/isdir.dgp'], /--out .*isdir\.dgp is a directory/],
  ['train --mode dpo on a buffer without failures', () => OFFLINE('dpo', ORACLE_BUFFER), /oracle\.jsonl has no failed shop episode, so no preference pair for DPO, which needs both .*; seed it with the oracle and agents that fail, into a new file, and import it: buffer seed --env shop .*--out .*shop-seed\.jsonl, then buffer import .*shop-seed\.jsonl --out .*oracle\.jsonl$/],
  ['train --mode bc on another environment\'s buffer', () => ['train', '--env', 'home', '--mode', 'bc', '--buffer', BUFFER], /seeded\.jsonl holds no real home transitions to train on; seed it with the oracle, into a new file, and import it: buffer seed --env home .*--out .*home-seed\.jsonl, then buffer import .*home-seed\.jsonl --out .*seeded\.jsonl$/],
  ['experience eval on another environment\'s buffer', () => ['experience', 'eval', '--env', 'home', '--experience', 'knn', '--buffer', BUFFER, '--heldout', '10'], /seeded\.jsonl holds no real home transitions .*; seed some into a new file and import them: buffer seed --env home --episodes 400 --out .*home-seed\.jsonl, then buffer import .*home-seed\.jsonl --out .*seeded\.jsonl$/],
  ['train --buffer a directory', () => [...TRAIN, '--mode', 'dream', '--synthetic-budget', '100', '--experience', 'knn', '--buffer', '{dir}/isdir.jsonl'], /--buffer .*isdir\.jsonl is a directory; name a buffer file/],
  ['experience fit --buffer a directory', () => ['experience', 'fit', '--env', 'shop', '--buffer', '{dir}/isdir.jsonl', '--out', '{dir}/model.dgx'], /--buffer .*isdir\.jsonl is a directory; name a buffer file/],

  // buffer seed, import, stats
  ['buffer seed --episodes 1e99', () => [...SEED, '--episodes', '1e99', '--out', '{dir}/out.jsonl'], /--episodes must be an integer ≥ 1 and ≤ 1,000,000/],
  ['buffer seed --episodes ten', () => [...SEED, '--episodes', 'ten', '--out', '{dir}/out.jsonl'], /--episodes must be an integer .*got "ten"/],
  ['buffer seed --seed beyond 2^53', () => ['buffer', 'seed', '--env', 'shop', '--episodes', '2', '--seed', '9007199254740993', '--out', '{dir}/out.jsonl'], /--seed must be an integer ≥ 0 and ≤ 9,007,199,254,740,991/],
  ['buffer seed --split nope', () => [...SEED, '--episodes', '2', '--split', 'nope', '--out', '{dir}/out.jsonl'], /--split must be one of: train, test/],
  ['buffer seed --mix expert=1', () => [...SEED, '--episodes', '2', '--mix', 'expert=1', '--out', '{dir}/out.jsonl'], /--mix names "expert"/],
  ['buffer seed --out in a missing directory', () => [...SEED, '--episodes', '2', '--out', '{dir}/missing/out.jsonl'], /--out .*does not exist/],
  ['buffer seed --out a directory', () => [...SEED, '--episodes', '2', '--out', '{dir}/isdir.jsonl'], /--out .*isdir\.jsonl is a directory/],
  ['buffer seed with a positional argument', () => [...SEED, '--episodes', '2', '--out', '{dir}/out.jsonl', 'extra'], /Unexpected argument 'extra'/],
  ['buffer import --out in a missing directory', () => ['buffer', 'import', BUFFER, '--out', '{dir}/missing/store.jsonl'], /--out .*does not exist/],
  ['buffer import --out a directory', () => ['buffer', 'import', BUFFER, '--out', '{dir}/isdir.jsonl'], /--out .*isdir\.jsonl is a directory/],
  ['buffer import a missing file', () => ['buffer', 'import', '{dir}/nothing.jsonl', '--out', '{dir}/store.jsonl'], /buffer import .*nothing\.jsonl does not exist/],
  ['buffer import two files', () => ['buffer', 'import', BUFFER, BUFFER, '--out', '{dir}/store.jsonl'], /buffer import takes one FILE\.jsonl, got 2/],
  ['buffer stats a missing file', () => ['buffer', 'stats', '{dir}/nothing.jsonl'], /buffer stats .*nothing\.jsonl does not exist/],
  ['buffer stats two files', () => ['buffer', 'stats', BUFFER, BUFFER], /buffer stats takes one FILE\.jsonl, got 2/],
  ['buffer stats --out', () => ['buffer', 'stats', BUFFER, '--out', '{dir}/x.jsonl'], /Unknown option '--out'/],

  // experience eval and fit
  ['experience eval --heldout 1e12', () => [...EVAL(), '--heldout', '1e12'], /--heldout must be an integer ≥ 1 and ≤ 1,000,000/],
  ['experience eval --heldout ten', () => [...EVAL(), '--heldout', 'ten'], /--heldout must be an integer/],
  ['experience eval --k 1000', () => [...EVAL(), '--heldout', '10', '--k', '1000'], /--k must be an integer ≥ 0 and ≤ 16/],
  ['experience eval --seed beyond 2^53', () => [...EVAL(), '--heldout', '10', '--seed', '9007199254740993'], /--seed must be an integer ≥ 0 and ≤ 9,007,199,254,740,991/],
  ['experience eval --experience knn --concurrency', () => [...EVAL(), '--heldout', '10', '--concurrency', '2'], /--concurrency does not apply with --experience knn/],
  ['experience eval --experience knn --timeout-ms', () => [...EVAL(), '--heldout', '10', '--timeout-ms', '1000'], /--timeout-ms does not apply with --experience knn/],
  ['experience eval --experience knn --framing', () => [...EVAL(), '--heldout', '10', '--framing', 'single'], /--framing does not apply with --experience knn/],
  ['experience eval --experience knn --backend', () => [...EVAL(), '--heldout', '10', '--backend', 'cpu'], /--backend goes with --experience neural/],
  [
    'experience eval --experience llm --concurrency 0',
    () => ['experience', 'eval', '--env', 'shop', '--experience', 'llm', '--endpoint', 'http://127.0.0.1:9/v1', '--model', 'm', '--buffer', BUFFER, '--heldout', '10', '--concurrency', '0'],
    /--concurrency must be an integer ≥ 1/,
  ],
  ['experience eval with a positional argument', () => [...EVAL(), '--heldout', '10', 'extra'], /Unexpected argument 'extra'/],
  ['experience fit --epochs 1e99', () => [...FIT(), '--out', '{dir}/model.dgx', '--epochs', '1e99'], /--epochs must be an integer ≥ 1 and ≤ 100/],
  ['experience fit --event-weight 0.5', () => [...FIT(), '--out', '{dir}/model.dgx', '--event-weight', '0.5'], /--event-weight must be a number in \[1, 1000\], got 0\.5/],
  ['experience fit --out in a missing directory', () => [...FIT(), '--out', '{dir}/missing/model.dgx'], /--out .*does not exist/],
  ['experience fit --out a directory', () => [...FIT(), '--out', '{dir}/isdir.dgx'], /--out .*isdir\.dgx is a directory/],

  // serve
  ['serve --port 99999', () => [...SERVE(), '--port', '99999'], /--port must be an integer ≥ 0 and ≤ 65,535/],
  ['serve --port=-1', () => [...SERVE(), '--port=-1'], /--port must be an integer/],
  ['serve --port 1.5', () => [...SERVE(), '--port', '1.5'], /--port must be an integer/],
  ['serve --port ten', () => [...SERVE(), '--port', 'ten'], /--port must be an integer .*got "ten"/],
  ['serve --k 1000', () => [...SERVE(), '--k', '1000'], /--k must be an integer ≥ 0 and ≤ 16/],
  ['serve --concurrency', () => [...SERVE(), '--concurrency', '2'], /--concurrency does not apply to serve/],
  ['serve --timeout-ms', () => [...SERVE(), '--timeout-ms', '1000'], /--timeout-ms does not apply to serve/],
  ['serve --api-key too short', () => [...SERVE(), '--api-key', 'secret'], /--api-key must be at least 8 characters/],
  ['serve beyond loopback without a key', () => [...SERVE(), '--host', '0.0.0.0'], /--host 0\.0\.0\.0 is reachable from other machines: set --api-key KEY/],
  ['serve --allow-origin with a path', () => [...SERVE(), '--allow-origin', 'https://room.example/app'], /--allow-origin must list origins such as https:\/\/app\.example/],
  ['serve --rate-limit=-1', () => [...SERVE(), '--rate-limit=-1'], /--rate-limit must be an integer ≥ 0/],
  ['serve --framing', () => [...SERVE(), '--framing', 'single'], /--framing does not apply to serve/],
  ['serve --endpoint', () => [...SERVE(), '--endpoint', 'http://127.0.0.1:9/v1'], /--endpoint does not apply to serve/],
  ['serve knn --model', () => [...SERVE(), '--model', 'shop.dgx'], /--model FILE\.dgx goes with --experience neural/],
  ['serve neural without --model', () => ['serve', '--experience', 'neural', '--buffer', BUFFER], /--experience neural needs --model FILE\.dgx/],
  ['serve --app-url ftp', () => [...SERVE(), '--app-url', 'ftp://x/'], /--app-url must be the http\(s\) address the participants open the app at/],
  ['serve with a positional argument', () => [...SERVE(), 'extra'], /Unexpected argument 'extra'/],

  // envs
  ['envs --frobnicate', () => ['envs', '--frobnicate'], /Unknown option '--frobnicate'/],
  ['envs with a positional argument', () => ['envs', 'extra'], /Unexpected argument 'extra'/],
];

describe('the CLI refuses bad input before any work', () => {
  it.each(CASES)('%s', async (_label, argv, message) => {
    const dir = mkdtempSync(path.join(root, 'case-'));
    for (const name of DIRECTORIES) mkdirSync(path.join(dir, name));
    const io = capture();
    const code = await main(argv().map((arg) => arg.replace('{dir}', dir)), io);
    const stderr = io.stderr.join('\n');
    expect(code, stderr).toBe(2);
    // One line of error (and the usage): no progress, so nothing was played, fitted or served.
    expect(io.stderr).toHaveLength(1);
    expect(io.stderr[0]).toMatch(/^error: /);
    expect(io.stderr[0]?.split('\n')[0]).toMatch(message);
    expect(stderr).not.toMatch(/^\s+at /m);
    expect(io.stdout).toEqual([]);
    // Nothing written: the case's directory holds what it held.
    expect(readdirSync(dir).sort()).toEqual([...DIRECTORIES].sort());
    for (const name of DIRECTORIES) expect(readdirSync(path.join(dir, name))).toEqual([]);
  });

  it('leaves the buffer the refused commands named as it was', () => {
    const now = statSync(BUFFER);
    expect({ size: now.size, mtimeMs: now.mtimeMs }).toEqual(seeded);
  });
});

describe('the CLI still takes what it always took', () => {
  it('serve --port 0 is still any free port, and a scripted rollout still defaults to 100 episodes', async () => {
    const io = capture();
    expect(await main([...ROLLOUT, '--json'], io)).toBe(0);
    expect(JSON.parse(io.stdout.at(-1) as string)).toMatchObject({ episodes: 100, split: 'test' });
    const { serveCommand } = await import('../../src/cli/commands/serve.ts');
    let stop = (): void => {};
    const stopped = new Promise<void>((resolve) => (stop = resolve));
    const served = capture();
    const running = serveCommand(served, ['--experience', 'knn', '--buffer', BUFFER, '--port', '0', '--k', '0', '--json'], stopped);
    await expect.poll(() => served.stdout.length).toBe(1);
    const { port, url } = JSON.parse(served.stdout[0] as string) as { port: number; url: string };
    expect(port).toBeGreaterThan(0);
    expect(url).toBe(`http://127.0.0.1:${port}`);
    stop();
    await running;
  });

  it('a reader that stops early (`cli envs | true`) ends it quietly with 0, as Unix tools end', () => {
    // `true` closes the pipe before the CLI writes: every write after that fails with EPIPE.
    const run = spawnSync('bash', ['-c', `"${process.execPath}" --import tsx src/cli/main.ts envs | true; exit \${PIPESTATUS[0]}`], { cwd: ROOT, encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });
});

describe('a file that is not what its flag says is named in the error', () => {
  it.each([
    ['an empty policy', () => ['rollout', '--env', 'shop', '--policy', '{dir}/empty.dgp', '--episodes', '1'], 1, /^error: --policy .*empty\.dgp: not a DreamGym policy file: the file is empty$/],
    ['a binary file to import', () => ['buffer', 'import', '{dir}/binary.jsonl', '--out', '{dir}/store.jsonl'], 1, /^error: .*binary\.jsonl: the file is binary, not JSONL text .*; .*store\.jsonl was left as it was$/],
    ['a file as --site', () => ['rollout', '--env', 'web', '--site', '{dir}/empty.dgp', '--policy', 'random', '--episodes', '1'], 2, /^error: --site .*empty\.dgp is a file; name the site's folder/],
  ] as [string, () => string[], number, RegExp][])('%s', async (_label, argv, exitCode, message) => {
    const dir = mkdtempSync(path.join(root, 'file-'));
    writeFileSync(path.join(dir, 'empty.dgp'), '');
    writeFileSync(path.join(dir, 'binary.jsonl'), Buffer.from([0x7b, 0x00, 0x01, 0xff, 0x00, 0x0a]));
    const io = capture();
    expect(await main(argv().map((arg) => arg.replace('{dir}', dir)), io)).toBe(exitCode);
    expect(io.stderr.at(-1)?.split('\n')[0]).toMatch(message);
    expect(readdirSync(dir).sort()).toEqual(['binary.jsonl', 'empty.dgp']);
  });
});
