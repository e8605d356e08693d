/**
 * `pretrain`: the experience model and the policy pretrained on the generated web apps of the
 * pretraining families, and only on them (pretrain-env.ts), in five stages that each leave a file
 * in `out/work/`:
 *
 * 1. seed: oracle, noisy and random episodes into a buffer (`buffer seed`'s job);
 * 2. fit: the experience model on that buffer (`experience fit`'s job);
 * 3. rl: the policy with PPO on the generated apps, checkpointed (`train --mode real`'s job);
 * 4. own: the trained policy's own (sampled) episodes added to a copy of the buffer;
 * 5. refit: the model fine-tuned from stage 2's on that buffer (`experience fit --init`).
 *
 * Then `out/` gets `policy.dgp`, `model.dgx`, `card.json` and `MODEL_CARD.md`: the files the app
 * ships from public/pretrained/web/. A finished stage whose output is still there is skipped
 * (pretrain-ledger.ts), a stopped RL stage goes on from its checkpoint, and every stage draws from
 * the one seed. The CLI's `pretrain` calls this; it takes no site: the world is fixed here.
 */
import { copyFile, mkdir, readFile, rm } from 'node:fs/promises';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { DreamGymError } from '../core/errors.ts';
import { envSpec, replaceEnvironment } from '../envs/registry.ts';
import type { EnvSpec } from '../envs/spec.ts';
import { HELD_OUT_FAMILIES, PRETRAINING_FAMILIES } from '../envs/web/generated/index.ts';
import { WEB_ENV } from '../envs/web/index.ts';
import { importPolicy } from '../policy/policy-file.ts';
import { saveStoreFile, FileReplayStore, loadStoreFile } from '../replay/file-store.ts';
import { MemoryReplayStore } from '../replay/memory-store.ts';
import { writeFileWhole } from '../platform/files.ts';
import { CHECKPOINT_MAX_BYTES, decodeCheckpoint, encodeCheckpoint, type TrainCheckpoint } from '../train/checkpoint.ts';
import { DEFAULT_CURRICULUM } from '../curriculum/curriculum.ts';
import { openBufferFile } from './buffer-file.ts';
import { fitExperienceModel, type FittedExperienceModel } from './fit-experience-model.ts';
import { exportTrainedPolicy } from './policy-export.ts';
import { CARD_FORMAT, modelCardMarkdown, withinShippingLimit, type PretrainCard } from './pretrain-card.ts';
import { pretrainingEnvironment, PRETRAINING_SITE, type FamilyCounts } from './pretrain-env.ts';
import { readLedger, sha256File, stageState, writeLedger, type Ledger, type StageName, type StageRecord } from './pretrain-ledger.ts';
import { playOwnSteps } from './pretrain-own-steps.ts';
import type { PretrainSettings } from './pretrain-spec.ts';
import { PRETRAINED_FILES } from './pretrained-files.ts';
import { seedBuffer } from './seed-buffer.ts';
import { train } from './train.ts';
import { flagName } from './spec.ts';

/** The stages' files, relative to the output folder. */
export const PRETRAIN_WORK = {
  buffer: 'work/buffer.jsonl',
  firstModel: 'work/model-fit.dgx',
  policy: 'work/policy.dgp',
  checkpoint: 'work/rl.dgc',
  ownBuffer: 'work/buffer-own.jsonl',
  refitModel: 'work/model-refit.dgx',
} as const;

const STAGES: readonly StageName[] = ['seed', 'fit', 'rl', 'own', 'refit'];

export interface PretrainJob {
  /** The output folder (made if missing; an earlier run's folder goes on where it stopped). */
  out: string;
  settings: PretrainSettings;
  /** The tfjs backend the caller started (recorded in the files and the card). */
  backend: string;
  /** Figures measured on the held-out families by another command, for the card. */
  heldOut?: unknown;
}

export interface PretrainHooks {
  onProgress?: (line: string) => void;
  /** Stops at the next point a stage can stop at: a seeding batch, a fit step, an RL iteration, an episode of the policy's own. */
  signal?: AbortSignal;
  /** After each stage, run or skipped (the tests stop a run between two stages here). */
  onStage?: (stage: StageName, outcome: 'ran' | 'skipped') => void;
  now?: () => number;
}

export interface PretrainResult {
  /** Stopped before the end: the stage it stopped in (the finished ones are kept; run it again to go on). */
  stoppedIn: StageName | null;
  /** The card of the finished run (null when stopped). */
  card: PretrainCard | null;
  files: { policy: string; model: string; card: string; modelCard: string } | null;
}

/** Stage outcomes the card reads, from this run or the ledger. */
type Summaries = Partial<Record<StageName, StageRecord>>;

export async function pretrain(job: PretrainJob, hooks: PretrainHooks = {}): Promise<PretrainResult> {
  const { out, settings } = job;
  const say = (line: string) => hooks.onProgress?.(line);
  await mkdir(join(out, 'work'), { recursive: true });
  const ledger = await readLedger(out);
  let counts: FamilyCounts = {};
  // The pretraining world in place of whatever `web` is (the CLI's --site is refused before, and a
  // caller's replaced env is put back after): every env any stage makes is the guarded one.
  const restore = replaceEnvironment(pretrainingEnvironment((family) => (counts[family] = (counts[family] ?? 0) + 1)));
  try {
    const spec = envSpec(WEB_ENV);
    const stages = settings.ownEpisodes > 0 ? STAGES : STAGES.filter((s) => s !== 'own' && s !== 'refit');
    const context: StageContext = { job, hooks, ledger, spec, say, stages, counts: () => counts, setCounts: (c) => (counts = c) };
    const done: Summaries = {};
    for (const stage of stages) {
      const record = await runStage(context, stage, done);
      if (record === null) {
        say(`pretrain: stopped in stage ${stage}; the stages before it are kept in ${out} (run the same command again to go on${stage === 'rl' ? ' from the last checkpoint' : ''})`);
        return { stoppedIn: stage, card: null, files: null };
      }
      done[stage] = record;
    }
    return await finish(context, done);
  } finally {
    restore();
  }
}

interface StageContext {
  job: PretrainJob;
  hooks: PretrainHooks;
  ledger: Ledger;
  spec: EnvSpec;
  say: (line: string) => void;
  stages: readonly StageName[];
  counts: () => FamilyCounts;
  setCounts: (counts: FamilyCounts) => void;
}

/** What a stage's run gives back: its summary, or null when it was stopped. */
type StageRun = Promise<Record<string, unknown> | null>;

/** Each stage's settings (what makes its output what it is), its inputs and its output. */
function stagePlan(job: PretrainJob, stage: StageName, done: Summaries): { settings: Record<string, unknown>; inputs: Record<string, string>; output: string } {
  const s = job.settings;
  const digest = (of: StageName): Record<string, string> => {
    const record = done[of] as StageRecord;
    return { [record.output.file]: record.output.sha256 };
  };
  switch (stage) {
    case 'seed':
      return { settings: { seed: s.seed, seedEpisodes: s.seedEpisodes, mix: s.mix }, inputs: {}, output: PRETRAIN_WORK.buffer };
    case 'fit':
      return { settings: { seed: s.seed, epochs: s.epochs, k: s.k }, inputs: digest('seed'), output: PRETRAIN_WORK.firstModel };
    case 'rl':
      // Real RL reads neither the buffer nor the model: its run is its settings alone.
      return { settings: { seed: s.seed, realBudget: s.realBudget, episodesPerIteration: s.episodesPerIteration, parallelEnvs: s.parallelEnvs, evalEpisodes: s.evalEpisodes }, inputs: {}, output: PRETRAIN_WORK.policy };
    case 'own':
      return { settings: { seed: s.seed, ownEpisodes: s.ownEpisodes }, inputs: { ...digest('seed'), ...digest('rl') }, output: PRETRAIN_WORK.ownBuffer };
    case 'refit':
      return { settings: { seed: s.seed, refitEpochs: s.refitEpochs, k: s.k }, inputs: { ...digest('own'), ...digest('fit') }, output: PRETRAIN_WORK.refitModel };
  }
}

async function runStage(context: StageContext, stage: StageName, done: Summaries): Promise<StageRecord | null> {
  const { job, hooks, ledger, say } = context;
  const plan = stagePlan(job, stage, done);
  const label = `pretrain [${context.stages.indexOf(stage) + 1}/${context.stages.length} ${stage}]`;
  if ((await stageState(job.out, ledger, stage, plan.settings, plan.inputs)) === 'done') {
    const record = ledger.stages[stage] as StageRecord;
    say(`${label}: done before (${record.output.file}, ${record.wallSeconds.toFixed(1)} s); skipped`);
    hooks.onStage?.(stage, 'skipped');
    return record;
  }
  if (hooks.signal?.aborted) return null;
  context.setCounts({});
  const started = performance.now();
  const summary = await STAGE_RUNS[stage](context, plan, (line) => say(`${label}: ${line}`));
  if (summary === null) return null;
  const output = await sha256File(join(job.out, plan.output));
  if (output === null) throw new DreamGymError('pretrain-stage', `stage ${stage} finished without writing ${plan.output}`);
  // A resumed RL stage's clock goes on from its checkpoint's.
  const wallSeconds = typeof summary.wallSeconds === 'number' ? summary.wallSeconds : (performance.now() - started) / 1000;
  const record: StageRecord = {
    settings: plan.settings,
    inputs: plan.inputs,
    output: { file: plan.output, ...output },
    wallSeconds: Number(wallSeconds.toFixed(2)),
    finishedAt: new Date(hooks.now?.() ?? Date.now()).toISOString(),
    summary: { ...summary, episodesByFamily: { ...context.counts() } },
  };
  ledger.stages[stage] = record;
  await writeLedger(job.out, ledger);
  say(`${label}: done in ${record.wallSeconds.toFixed(1)} s; wrote ${plan.output}`);
  hooks.onStage?.(stage, 'ran');
  return record;
}

type Plan = ReturnType<typeof stagePlan>;
const STAGE_RUNS: Record<StageName, (context: StageContext, plan: Plan, say: (line: string) => void) => StageRun> = {
  seed: seedStage,
  fit: (context, plan, say) => fitStage(context, plan, say, { buffer: PRETRAIN_WORK.buffer, epochs: context.job.settings.epochs }),
  rl: rlStage,
  own: ownStage,
  refit: (context, plan, say) => fitStage(context, plan, say, { buffer: PRETRAIN_WORK.ownBuffer, epochs: context.job.settings.refitEpochs, init: PRETRAIN_WORK.firstModel }),
};

async function seedStage(context: StageContext, plan: Plan, say: (line: string) => void): StageRun {
  const { job, spec, hooks } = context;
  const { seed, seedEpisodes, mix } = job.settings;
  const path = join(job.out, plan.output);
  // A buffer left by a stopped seeding is not resumed: its episodes are played again from the seed.
  await rm(path, { force: true });
  const store = await FileReplayStore.open(path);
  try {
    const every = Math.max(1, Math.floor(seedEpisodes / 10));
    let reported = 0;
    const result = await seedBuffer(spec, { episodes: seedEpisodes, mix, seed }, {
      store,
      runId: `pretrain-seed-${seed}`,
      ...(hooks.signal ? { signal: hooks.signal } : {}),
      onProgress: (p) => {
        if (Math.floor(p.episodes / every) > Math.floor(reported / every) || p.episodes === p.total) say(`seeded ${p.episodes}/${p.total} episodes, ${p.transitions} transitions`);
        reported = p.episodes;
      },
    });
    if (result.stopped) return null;
    await store.save();
    return { episodes: result.episodes, transitions: result.transitions, byAgent: result.byAgent };
  } finally {
    await store.release();
  }
}

async function fitStage(context: StageContext, plan: Plan, say: (line: string) => void, what: { buffer: string; epochs: number; init?: string }): StageRun {
  const { job, hooks } = context;
  const buffer = await openBufferFile(join(job.out, what.buffer));
  const init = what.init === undefined ? undefined : { name: what.init, bytes: new Uint8Array(await readFile(join(job.out, what.init))) };
  let fitted: FittedExperienceModel;
  // The fit reports an epoch's end twice (its last step, then its held-out fidelity): said once.
  let said = 0;
  try {
    fitted = await fitExperienceModel(
      { env: WEB_ENV, epochs: what.epochs, k: job.settings.k, seed: job.settings.seed },
      {
        buffer,
        backend: job.backend,
        source: 'cli',
        bufferName: what.buffer,
        ...(init ? { init } : {}),
        ...(hooks.signal ? { signal: hooks.signal } : {}),
        onProgress: (p) => {
          if (p.phase === 'prepare' && p.done === p.total) say(`posed ${p.total} transitions with their retrieved examples`);
          if (p.phase === 'train' && p.loss && p.done === p.total && p.epoch > said) {
            said = p.epoch;
            say(`epoch ${p.epoch}/${p.epochs}: loss line ${p.loss.line.toFixed(4)} action ${p.loss.action.toFixed(4)} transition ${p.loss.transition.toFixed(4)}`);
          }
        },
      },
    );
  } catch (error) {
    if (hooks.signal?.aborted) return null;
    throw error;
  }
  fitted.model.dispose();
  await writeFileWhole(join(job.out, plan.output), fitted.bytes, `the experience model ${plan.output}`);
  const last = fitted.fit.epochs.at(-1);
  if (last?.validation) say(`held-out next-state F1 ${last.validation.nextStateF1.toFixed(3)}, reward accuracy ${last.validation.rewardAccuracy.toFixed(3)} on ${fitted.fit.validationTransitions} transitions`);
  return {
    epochs: fitted.fit.epochs.length,
    transitions: fitted.fit.transitions,
    validationTransitions: fitted.fit.validationTransitions,
    firstEpochLoss: fitted.fit.epochs[0]?.loss ?? null,
    lastValidation: last?.validation ?? null,
    ...(fitted.init ? { init: fitted.init } : {}),
  };
}

async function rlStage(context: StageContext, plan: Plan, say: (line: string) => void): StageRun {
  const { job, hooks, ledger } = context;
  const s = job.settings;
  const checkpointPath = join(job.out, PRETRAIN_WORK.checkpoint);
  const started = ledger.rlStarted;
  const sameRun = started !== undefined && JSON.stringify(started.settings) === JSON.stringify(plan.settings);
  let resume: TrainCheckpoint | undefined;
  if (sameRun) {
    const bytes = await readFile(checkpointPath).catch(() => null);
    if (bytes !== null && bytes.length <= CHECKPOINT_MAX_BYTES) resume = decodeCheckpoint(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  }
  if (resume) {
    // The episodes counted up to the checkpoint; those after it are played again.
    context.setCounts({ ...(started?.episodesByFamily ?? {}) });
    say(`resuming from ${PRETRAIN_WORK.checkpoint}: ${resume.progress.iteration} iterations done, ${resume.progress.realTransitions} real transitions`);
  } else {
    await rm(checkpointPath, { force: true });
    ledger.rlStarted = { settings: plan.settings, inputs: plan.inputs };
    await writeLedger(job.out, ledger);
  }
  const { trainer, result } = await train(
    {
      env: WEB_ENV,
      mode: 'real',
      algo: 'ppo',
      backend: job.backend,
      run: { seed: s.seed, realBudget: s.realBudget, evalEvery: 0, finalEvalEpisodes: s.evalEpisodes, lambda: DEFAULT_CURRICULUM.lambda, explorationFloor: DEFAULT_CURRICULUM.explorationFloor },
      curriculum: false,
      algoConfig: { episodesPerIteration: s.episodesPerIteration, parallelEnvs: s.parallelEnvs },
    },
    {
      ...(hooks.signal ? { signal: hooks.signal } : {}),
      ...(resume ? { resume } : {}),
      checkpoint: {
        everySeconds: s.checkpointEvery,
        save: async (checkpoint) => {
          await writeFileWhole(checkpointPath, encodeCheckpoint(checkpoint), `the checkpoint ${PRETRAIN_WORK.checkpoint}`);
          ledger.rlStarted = { settings: plan.settings, inputs: plan.inputs, episodesByFamily: { ...context.counts() } };
          await writeLedger(job.out, ledger);
        },
      },
      onIteration: (m) => say(`iter ${m.iteration}: ${m.realTransitions}/${s.realBudget} real, success ${(m.successRate * 100).toFixed(1)}%, ${Math.round(m.samplesPerSecond)} samples/s`),
      onEvalProgress: (n, total) => {
        if (n === total) say(`evaluated ${total} test episodes`);
      },
    },
  );
  try {
    if (result.diverged) throw new DreamGymError('diverged', `the RL stage diverged at iteration ${result.diverged.iteration} (its update went NaN or infinite); run it again with another --seed, or a smaller --episodes-per-iteration`);
    if (result.stopped) return null;
    await writeFileWhole(join(job.out, plan.output), await exportTrainedPolicy(trainer, job.backend), `the policy ${plan.output}`);
  } finally {
    trainer.dispose();
  }
  await rm(checkpointPath, { force: true });
  const evaluation = result.eval && { split: result.eval.split, episodes: result.eval.episodes, successRate: result.eval.successRate, meanScore: result.eval.meanScore };
  if (evaluation) say(`greedy on the pretraining families' ${evaluation.split} split: ${(evaluation.successRate * 100).toFixed(1)}% of ${evaluation.episodes}`);
  return { algo: result.algo, realTransitions: result.realTransitions, iterations: result.iterations, eval: evaluation, wallSeconds: result.wallSeconds };
}

async function ownStage(context: StageContext, plan: Plan, say: (line: string) => void): StageRun {
  const { job, hooks, spec } = context;
  const store = new MemoryReplayStore({}, await loadStoreFile(join(job.out, PRETRAIN_WORK.buffer)));
  const { policy } = importPolicy(new Uint8Array(await readFile(join(job.out, PRETRAIN_WORK.policy))));
  try {
    const result = await playOwnSteps(spec, policy, {
      store,
      episodes: job.settings.ownEpisodes,
      seed: job.settings.seed,
      runId: `pretrain-own-${job.settings.seed}`,
      createdAt: hooks.now?.() ?? Date.now(),
      ...(hooks.signal ? { signal: hooks.signal } : {}),
      onEpisode: (n, total) => {
        if (n === total || n % Math.max(1, Math.floor(total / 10)) === 0) say(`the policy played ${n}/${total} episodes`);
      },
    });
    if (result.stopped) return null;
    await saveStoreFile(join(job.out, plan.output), store.contents());
    return { episodes: result.episodes, transitions: result.transitions, successRate: result.successRate };
  } finally {
    policy.dispose();
  }
}

/** Copies the final files into place and writes the card. */
async function finish(context: StageContext, done: Summaries): Promise<PretrainResult> {
  const { job, hooks } = context;
  const files = {
    policy: join(job.out, PRETRAINED_FILES.policy),
    model: join(job.out, PRETRAINED_FILES.model),
    card: join(job.out, PRETRAINED_FILES.card),
    modelCard: join(job.out, PRETRAINED_FILES.modelCard),
  };
  const finalModel = done.refit ?? (done.fit as StageRecord);
  await copyFile(join(job.out, (done.rl as StageRecord).output.file), files.policy);
  await copyFile(join(job.out, finalModel.output.file), files.model);
  const policy = await sha256File(files.policy);
  const model = await sha256File(files.model);
  if (policy === null || model === null) throw new DreamGymError('pretrain-stage', `${job.out}: the final files could not be read back after copying`);
  const fileFacts = { policy: { file: PRETRAINED_FILES.policy, ...policy }, model: { file: PRETRAINED_FILES.model, ...model } };
  const card = buildCard(job, done, fileFacts, await heldOutFigures(job, files.card, fileFacts), hooks.now?.() ?? Date.now());
  await writeFileWhole(files.card, `${JSON.stringify(card, null, 1)}\n`, `the card ${files.card}`);
  await writeFileWhole(files.modelCard, modelCardMarkdown(card), `the model card ${files.modelCard}`);
  context.say(`pretrain: wrote ${files.policy}, ${files.model}, ${files.card} and ${files.modelCard} (${((policy.bytes + model.bytes) / 1024 / 1024).toFixed(2)} MB of weights; ${card.wallSeconds.total.toFixed(1)} s in all)`);
  if (!card.withinShippingLimit) context.say('pretrain: warning: the weights together are over the 10 MB the app ships; see MODEL_CARD.md');
  return { stoppedIn: null, card, files };
}

/** The held-out figures given now, else those an earlier card of the same files held. */
async function heldOutFigures(job: PretrainJob, cardPath: string, files: PretrainCard['files']): Promise<unknown> {
  if (job.heldOut !== undefined) return job.heldOut;
  const before = await readFile(cardPath, 'utf8').then((text) => JSON.parse(text) as Partial<PretrainCard>).catch(() => null);
  const sameFiles = before?.files?.policy?.sha256 === files.policy.sha256 && before?.files?.model?.sha256 === files.model.sha256;
  return sameFiles ? (before?.heldOut ?? null) : null;
}

function buildCard(job: PretrainJob, done: Summaries, files: PretrainCard['files'], heldOut: unknown, now: number): PretrainCard {
  const summary = (stage: StageName): Record<string, unknown> => done[stage]?.summary ?? {};
  const episodesByFamily: Record<string, number> = {};
  for (const stage of STAGES) {
    for (const [family, n] of Object.entries((summary(stage).episodesByFamily ?? {}) as Record<string, number>)) episodesByFamily[family] = (episodesByFamily[family] ?? 0) + n;
  }
  const wallSeconds: PretrainCard['wallSeconds'] = { total: 0 };
  for (const stage of STAGES) {
    const record = done[stage];
    if (!record) continue;
    wallSeconds[stage] = record.wallSeconds;
    wallSeconds.total = Number((wallSeconds.total + record.wallSeconds).toFixed(2));
  }
  const seed = summary('seed') as { episodes: number; transitions: number; byAgent: PretrainCard['data']['seed']['byAgent'] };
  const fit = summary('fit') as { epochs: number; transitions: number; validationTransitions: number; lastValidation: unknown };
  const rl = summary('rl') as { algo: string; realTransitions: number; iterations: number; eval: PretrainCard['steps']['rl']['eval'] };
  const own = done.own ? (summary('own') as { episodes: number; transitions: number; successRate: number }) : null;
  const refit = done.refit ? (summary('refit') as { epochs: number; transitions: number; lastValidation: unknown }) : null;
  const cpu = cpus();
  return {
    format: CARD_FORMAT,
    version: 1,
    env: WEB_ENV,
    createdAt: new Date(now).toISOString(),
    command: pretrainCommand(job.settings),
    settings: { ...job.settings },
    data: {
      site: PRETRAINING_SITE,
      families: [...PRETRAINING_FAMILIES],
      heldOutFamilies: [...HELD_OUT_FAMILIES],
      episodesByFamily,
      seed: { episodes: seed.episodes, transitions: seed.transitions, byAgent: seed.byAgent },
      own: own && { episodes: own.episodes, transitions: own.transitions, successRate: own.successRate },
    },
    steps: {
      fit: { epochs: fit.epochs, transitions: fit.transitions, validationTransitions: fit.validationTransitions, lastValidation: fit.lastValidation },
      rl: { algo: rl.algo, realTransitions: rl.realTransitions, iterations: rl.iterations, eval: rl.eval },
      refit: refit && { epochs: refit.epochs, transitions: refit.transitions, lastValidation: refit.lastValidation },
    },
    wallSeconds,
    machine: { platform: process.platform, arch: process.arch, cpus: cpu.length, cpuModel: cpu[0]?.model.trim() ?? 'unknown', memoryGiB: Number((totalmem() / 1024 ** 3).toFixed(1)), node: process.version, backend: job.backend },
    files,
    withinShippingLimit: withinShippingLimit(files),
    heldOut,
  };
}

/** The command line that makes the same weights (every size written out, the folder left to the reader). */
export function pretrainCommand(settings: PretrainSettings): string {
  const flags = Object.entries(settings).map(([field, value]) => `${flagName(field)} ${String(value)}`);
  return `npm run -s cli -- pretrain --out DIR ${flags.join(' ')}`;
}
