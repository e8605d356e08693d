/**
 * The paper's table in miniature: which runs make it, at which size. Each run is one CLI command
 * (`train …`), so every number in the results file can be reproduced by hand.
 */
import { UsageError } from '../src/core/errors.ts';
import { isOfflineMode, type TrainAlgo, type TrainMode } from '../src/train/modes.ts';

export type PresetName = 'quick' | 'full';

export interface Preset {
  /** The offline real data the experience model learns from and retrieves: `buffer seed`. */
  bufferEpisodes: number;
  bufferMix: string;
  /** `experience fit --epochs`. */
  fitEpochs: number;
  /** Real transitions of real mode (the paper's ~80K). */
  realBudget: number;
  /** Synthetic transitions of dream and s2r. */
  syntheticBudget: number;
  /** s2r's real phase (≤ 10% of real mode's). */
  s2rRealBudget: number;
  finalEvalEpisodes: number;
  /** Held-out evaluations during training, for the learning curves. */
  evalEvery: number;
  evalEpisodes: number;
  /** Step limit of training episodes, the same for every row (home's lost episodes would eat a small budget). */
  trainMaxSteps?: number;
  /** `--tasks` every command of the experiment takes (web: the site's tasks the regime is about). */
  tasks?: string;
  /** The buffer's episodes are demonstrations: `buffer seed --per-task`, at most this many of each task. */
  perTask?: number;
  /** Scripted exploration seeded beside the demonstrations (another seed) and imported into the same buffer. */
  exploration?: { episodes: number; mix: string };
}

/**
 * The experiment's regimes: `standard`, the paper's table on an offline buffer of scripted agents;
 * `demos`, where real RL is impractical (issue 27): the web suite's app-like tasks, a buffer of at
 * most 20 oracle demonstrations per task (a team's recordings) and random exploration, and real
 * mode only for reference.
 */
export type RegimeName = 'standard' | 'demos';

/**
 * Home's buffer gives the hasty oracle half the oracle's share: a model fitted without its episodes
 * calls a put of the unprepared object a success (issue 24, results/experience-model/fidelity/). Its episodes are won
 * after a detour, as the noisy expert's are, and BC clones them like any other success.
 */
const HOME_MIX = 'oracle=0.2,hasty=0.2,noisy=0.3,random=0.3';

export const PRESETS: Readonly<Record<string, Readonly<Record<PresetName, Preset>>>> = {
  shop: {
    quick: { bufferEpisodes: 300, bufferMix: 'oracle=0.4,noisy=0.3,random=0.3', fitEpochs: 3, realBudget: 12_000, syntheticBudget: 12_000, s2rRealBudget: 1200, finalEvalEpisodes: 200, evalEvery: 4, evalEpisodes: 50 },
    full: { bufferEpisodes: 700, bufferMix: 'oracle=0.4,noisy=0.3,random=0.3', fitEpochs: 6, realBudget: 80_000, syntheticBudget: 80_000, s2rRealBudget: 5000, finalEvalEpisodes: 500, evalEvery: 20, evalEpisodes: 100 },
  },
  home: {
    quick: { bufferEpisodes: 200, bufferMix: HOME_MIX, fitEpochs: 3, realBudget: 12_000, syntheticBudget: 12_000, s2rRealBudget: 1200, finalEvalEpisodes: 100, evalEvery: 4, evalEpisodes: 30, trainMaxSteps: 20 },
    full: { bufferEpisodes: 500, bufferMix: HOME_MIX, fitEpochs: 6, realBudget: 80_000, syntheticBudget: 80_000, s2rRealBudget: 5000, finalEvalEpisodes: 250, evalEvery: 20, evalEpisodes: 100, trainMaxSteps: 20 },
  },
  // The bundled web suite: real mode reaches ~77–80% of its 900 held-out instances at 30K (results/real-baseline/web/),
  // so the full preset spends 30K, and s2r's real phase 10% of it; the final evaluation plays all 900.
  web: {
    quick: { bufferEpisodes: 300, bufferMix: 'oracle=0.4,noisy=0.3,random=0.3', fitEpochs: 3, realBudget: 8_000, syntheticBudget: 8_000, s2rRealBudget: 800, finalEvalEpisodes: 300, evalEvery: 4, evalEpisodes: 60 },
    full: { bufferEpisodes: 600, bufferMix: 'oracle=0.4,noisy=0.3,random=0.3', fitEpochs: 6, realBudget: 30_000, syntheticBudget: 30_000, s2rRealBudget: 3000, finalEvalEpisodes: 900, evalEvery: 10, evalEpisodes: 100 },
  },
};

/**
 * The demonstrations-only regime (issue 27): 12 app-like tasks × 20 demonstrations; s2r's real phase
 * is 1,000 transitions, and real mode trains on the same 1,000 from scratch beside it. The final
 * evaluation plays all 360 app-like test instances (12 tasks × 30 seeds).
 */
const DEMOS_BUFFER = { bufferEpisodes: 240, bufferMix: 'oracle=1', perTask: 20, exploration: { episodes: 240, mix: 'random=1' }, tasks: '@app' } as const;
export const DEMO_PRESETS: Readonly<Record<string, Readonly<Record<PresetName, Preset>>>> = {
  web: {
    quick: { ...DEMOS_BUFFER, fitEpochs: 3, realBudget: 8_000, syntheticBudget: 8_000, s2rRealBudget: 1000, finalEvalEpisodes: 360, evalEvery: 4, evalEpisodes: 60 },
    full: { ...DEMOS_BUFFER, fitEpochs: 6, realBudget: 80_000, syntheticBudget: 30_000, s2rRealBudget: 1000, finalEvalEpisodes: 360, evalEvery: 10, evalEpisodes: 120 },
  },
};

/**
 * The demonstrations regime with `perTask` demonstrations of each task instead of the preset's 20
 * (`paper --regime demos --per-task N`): how few recordings a team can start from, and what the
 * dream adds to cloning when they are few. The exploration and every budget stay the preset's; the
 * buffer's demonstration episodes scale with the count (12 app-like tasks × N).
 */
export function withDemonstrationsPerTask(preset: Readonly<Preset>, perTask: number): Preset {
  const most = preset.perTask;
  if (most === undefined) throw new UsageError('--per-task is for the demos regime, whose buffer holds demonstrations of each task');
  if (!Number.isInteger(perTask) || perTask < 1 || perTask > most) throw new UsageError(`--per-task must be a whole number from 1 to ${most} (the regime's demonstrations of each task), got ${perTask}`);
  return { ...preset, perTask, bufferEpisodes: (preset.bufferEpisodes / most) * perTask };
}

/**
 * How the settings a work folder's runs were made with differ from a preset's, one `key: then, now`
 * per changed setting: a resumed experiment must not put runs of two setups in one table under the
 * newer setup's commands.
 */
export function settingsChanges(then: Readonly<Preset>, now: Readonly<Preset>): string[] {
  const keys = [...new Set([...Object.keys(then), ...Object.keys(now)])] as (keyof Preset)[];
  const shown = (value: unknown): string => (value === undefined ? 'unset' : JSON.stringify(value));
  return keys.filter((key) => shown(then[key]) !== shown(now[key])).map((key) => `${key}: ${shown(then[key])} then, ${shown(now[key])} now`);
}

/** The presets of a regime, by environment. */
export function regimePresets(regime: RegimeName): Readonly<Record<string, Readonly<Record<PresetName, Preset>>>> {
  return regime === 'demos' ? DEMO_PRESETS : PRESETS;
}

export interface RowSpec {
  /** Names the row's run files (`<id>-s<seed>.json`): an id never changes, so recorded runs stay valid. */
  id: string;
  label: string;
  mode: TrainMode;
  /** PPO or GRPO; an offline row's is its mode. */
  algo: TrainAlgo;
  /** Extra `train` flags (the ablations). */
  flags: string[];
  /** A real row's budget: the preset's real one (default) or s2r's real phase's, to train from scratch on what s2r spends. */
  realBudget?: 'real' | 's2r-real';
  /** A dream row's experience model: the fitted neural one (default) or the kNN floor, which needs no fit. */
  experience?: 'neural' | 'knn';
  /** Start from the policy this row (an offline one, which saves it beside its history) trained with the same seed (`--init`). */
  initFrom?: string;
}

/**
 * The table's rows, in the paper's order: the untrained policy every row starts from, real mode
 * at both real budgets, the offline baselines on the same buffer the experience model learns from,
 * then the dream rows. Dream rows use the curriculum unless the row ablates it.
 */
export const ROWS: readonly RowSpec[] = [
  // `--iterations 0`: the seed's initial policy, evaluated like every other row (0 transitions).
  { id: 'untrained', label: 'untrained policy', mode: 'real', algo: 'grpo', flags: ['--iterations', '0'] },
  { id: 'real-ppo', label: 'real PPO', mode: 'real', algo: 'ppo', flags: [] },
  { id: 'real-grpo', label: 'real GRPO', mode: 'real', algo: 'grpo', flags: [] },
  { id: 'real-ppo-5k', label: "real PPO, s2r's real budget", mode: 'real', algo: 'ppo', flags: [], realBudget: 's2r-real' },
  { id: 'real-grpo-5k', label: "real GRPO, s2r's real budget", mode: 'real', algo: 'grpo', flags: [], realBudget: 's2r-real' },
  { id: 'bc', label: 'BC (offline)', mode: 'bc', algo: 'bc', flags: [] },
  { id: 'dpo', label: 'DPO (offline)', mode: 'dpo', algo: 'dpo', flags: [] },
  { id: 'dream-ppo', label: 'dream PPO', mode: 'dream', algo: 'ppo', flags: [] },
  { id: 'dream-grpo', label: 'dream GRPO', mode: 'dream', algo: 'grpo', flags: [] },
  { id: 's2r-ppo', label: 's2r PPO', mode: 's2r', algo: 'ppo', flags: [] },
  { id: 's2r-grpo', label: 's2r GRPO', mode: 's2r', algo: 'grpo', flags: [] },
  { id: 'dream-grpo-no-retrieval', label: 'dream GRPO w/o retrieval', mode: 'dream', algo: 'grpo', flags: ['--k', '0'] },
  { id: 'dream-grpo-no-curriculum', label: 'dream GRPO w/o curriculum', mode: 'dream', algo: 'grpo', flags: ['--curriculum', 'off'] },
  { id: 'dream-grpo-no-reasoning', label: 'dream GRPO w/o reasoning', mode: 'dream', algo: 'grpo', flags: ['--reasoning', 'off'] },
  { id: 'dream-grpo-knn', label: 'dream GRPO, kNN model', mode: 'dream', algo: 'grpo', flags: [], experience: 'knn' },
  // Where cloning the demonstrations already does well: what the dream adds to the cloned policy,
  // held near it by a KL term (GRPO's reference policy is the one it starts from; ANCHOR_KL).
  { id: 'dream-grpo-from-bc', label: 'dream GRPO from the BC policy (KL to it)', mode: 'dream', algo: 'grpo', flags: [], initFrom: 'bc' },
  // A team that has demonstrations and can afford 1,000 real transitions starts both from its cloned
  // policy: s2r from BC against real GRPO from BC on the same real budget (the same KL anchor) asks
  // whether the dream phase is worth having there, which the rows from scratch cannot.
  { id: 'real-grpo-5k-from-bc', label: "real GRPO from the BC policy, s2r's real budget (KL to it)", mode: 'real', algo: 'grpo', flags: [], realBudget: 's2r-real', initFrom: 'bc' },
  { id: 's2r-grpo-from-bc', label: 's2r GRPO from the BC policy (KL to it)', mode: 's2r', algo: 'grpo', flags: [], initFrom: 'bc' },
];

/**
 * The KL coefficient that holds a row started from the BC policy (`initFrom`) near it, per env,
 * each chosen on seed 1's BC policy and data the tables do not report:
 * - web: 600 train-split episodes (BC 95.0%): klCoef 0 → 93.0%, 0.05 → 94.2%, 0.2 → 96.5%,
 *   0.5 → 96.2% (results/web-demos/declared/README.md);
 * - home: the 250 valid-seen tasks (BC 68.8%): 0.05 → 78.0%, 0.2 → 72.8%, 0.5 → 70.0%
 *   (results/paper/full/home-kl/README.md; 0 not tried);
 * - shop: not chosen on its own data; the web suite's.
 */
export const ANCHOR_KL: Readonly<Record<string, number>> = { web: 0.2, home: 0.05, shop: 0.2 };

/** The demonstrations regime's rows: no ablation (they are the standard regime's question). */
const DEMO_ROW_IDS = ['untrained', 'real-ppo', 'real-grpo', 'real-ppo-5k', 'real-grpo-5k', 'bc', 'dpo', 'dream-ppo', 'dream-grpo', 's2r-ppo', 's2r-grpo', 'dream-grpo-from-bc', 'real-grpo-5k-from-bc', 's2r-grpo-from-bc'];

/**
 * Rows of the demonstrations regime alone (the standard tables were made without them). The dream
 * from BC is in both: on home, cloning the buffer beats real RL at 80K, so what the dream adds to the
 * cloned policy is the standard regime's question too (DreamGym against the offline baselines).
 */
const DEMO_ONLY_ROW_IDS = ['real-grpo-5k-from-bc', 's2r-grpo-from-bc'];

/** The rows of a regime's table, in the table's order. */
export function regimeRows(regime: RegimeName): RowSpec[] {
  return regime === 'demos' ? ROWS.filter((row) => DEMO_ROW_IDS.includes(row.id)) : ROWS.filter((row) => !DEMO_ONLY_ROW_IDS.includes(row.id));
}

/** The rows whose runs save their policy: those another row of the table starts from. */
export function savedPolicyRows(rows: readonly RowSpec[]): Set<string> {
  return new Set(rows.flatMap((row) => (row.initFrom !== undefined ? [row.initFrom] : [])));
}

/** `--env ENV`, and the preset's `--tasks`: how every command of the experiment names its environment. */
export function envArgs(env: string, preset: Preset): string[] {
  return ['--env', env, ...(preset.tasks !== undefined ? ['--tasks', preset.tasks] : [])];
}

/**
 * The commands that make the offline buffer `buffer`, in order, writing the store at `into` (the
 * runner builds it under another name and renames it when whole): one seeding, or the
 * demonstrations and the exploration seeded into files of their own beside it
 * (`…-demos.jsonl`, `…-exploration.jsonl`) and imported into one store.
 */
export function bufferCommands(env: string, preset: Preset, buffer: string, into = buffer): string[][] {
  const seed = (episodes: number, mix: string, seedValue: number, out: string, perTask?: number): string[] =>
    ['buffer', 'seed', ...envArgs(env, preset), '--episodes', String(episodes), '--mix', mix, ...(perTask !== undefined ? ['--per-task', String(perTask)] : []), '--seed', String(seedValue), '--out', out];
  if (!preset.exploration) return [seed(preset.bufferEpisodes, preset.bufferMix, 1, into, preset.perTask)];
  const demos = buffer.replace(/\.jsonl$/, '-demos.jsonl');
  const exploration = buffer.replace(/\.jsonl$/, '-exploration.jsonl');
  return [
    seed(preset.bufferEpisodes, preset.bufferMix, 1, demos, preset.perTask),
    seed(preset.exploration.episodes, preset.exploration.mix, 2, exploration),
    ['buffer', 'import', demos, '--out', into],
    ['buffer', 'import', exploration, '--out', into],
  ];
}

/** The `experience fit` arguments that fit the neural model on the offline buffer (seed 1, the preset's epochs). */
export function fitArgs(env: string, preset: Preset, buffer: string, model: string): string[] {
  return ['experience', 'fit', ...envArgs(env, preset), '--buffer', buffer, '--out', model, '--epochs', String(preset.fitEpochs), '--seed', '1'];
}

/** Where a row's run saves its policy for the rows that start from it: beside its history. */
export function policyFile(history: string): string {
  return history.replace(/\.json$/, '.dgp');
}

/** The `train` arguments of one row and seed. */
export function trainArgs(env: string, preset: Preset, row: RowSpec, seed: number, files: { buffer: string; model: string; history: string; savePolicy?: boolean }): string[] {
  if (isOfflineMode(row.mode)) {
    // An offline row plays no episode but its evaluations, and its epochs cost no transition: its
    // curve would stand at 0 transitions, so only the final evaluation is run. It saves its policy
    // where a row of the table starts from it (initFrom).
    return ['train', ...envArgs(env, preset), '--mode', row.mode, '--seed', String(seed), '--buffer', files.buffer,
      '--final-eval-episodes', String(preset.finalEvalEpisodes), ...row.flags, '--history', files.history, ...(files.savePolicy ? ['--out', policyFile(files.history)] : []), '--json'];
  }
  const args = ['train', ...envArgs(env, preset), '--mode', row.mode, '--algo', row.algo, '--seed', String(seed)];
  if (row.initFrom !== undefined) args.push('--init', policyFile(siblingHistory(files.history, `${row.initFrom}-s${seed}.json`)));
  if (row.mode === 'real') args.push('--real-budget', String(row.realBudget === 's2r-real' ? preset.s2rRealBudget : preset.realBudget));
  else {
    args.push('--synthetic-budget', String(preset.syntheticBudget), '--buffer', files.buffer);
    args.push(...(row.experience === 'knn' ? ['--experience', 'knn'] : ['--experience', 'neural', '--model', files.model]));
    if (row.mode === 's2r') args.push('--real-budget', String(preset.s2rRealBudget));
  }
  if (preset.trainMaxSteps !== undefined) args.push('--train-max-steps', String(preset.trainMaxSteps));
  args.push(
    '--eval-every', String(preset.evalEvery),
    '--eval-episodes', String(preset.evalEpisodes),
    '--final-eval-episodes', String(preset.finalEvalEpisodes),
    ...row.flags,
    // An env without a choice of its own takes the web suite's.
    ...(row.initFrom !== undefined ? ['--set', `klCoef=${ANCHOR_KL[env] ?? ANCHOR_KL.web}`] : []),
    '--history', files.history,
    '--json',
  );
  return args;
}

/** The rows `--rows a,b` names, in the table's order; every row (of `rows`, the regime's) when none is named. */
export function selectRows(list: string | undefined, rows: readonly RowSpec[] = ROWS): RowSpec[] {
  if (list === undefined) return [...rows];
  const ids = list.split(',').map((id) => id.trim()).filter(Boolean);
  const unknown = ids.filter((id) => !rows.some((row) => row.id === id));
  if (ids.length === 0 || unknown.length > 0) {
    throw new UsageError(`${ids.length === 0 ? '--rows names no row' : `unknown row${unknown.length > 1 ? 's' : ''} ${unknown.map((id) => `"${id}"`).join(', ')}`}; the rows are: ${rows.map((row) => row.id).join(', ')}`);
  }
  return rows.filter((row) => ids.includes(row.id));
}

/** What runs still to do read: the offline buffer (every row but real mode's) and the fitted neural model (dream and s2r rows that use it). */
export function setupNeeds(rows: readonly RowSpec[]): { buffer: boolean; model: boolean } {
  const model = rows.some((row) => (row.mode === 'dream' || row.mode === 's2r') && row.experience !== 'knn');
  return { buffer: model || rows.some((row) => row.mode !== 'real'), model };
}

/** The history file named `name` in the same folder as `history`, when `history` is a seed's file (`…-sN.json`); else `history` itself. */
function siblingHistory(history: string, name: string): string {
  const folder = history.lastIndexOf('/') + 1;
  return /-s\d+\.json$/.test(history.slice(folder)) ? `${history.slice(0, folder)}${name}` : history;
}
