/**
 * State of the Play view as signals, and the commands that change it. Every command goes to the
 * environment worker; errors are shown to the person, never swallowed.
 */
import { computed, signal } from '@preact/signals';
import { errorMessage } from '../../core/errors.ts';
import { realTransition } from '../../core/transition.ts';
import type { Observation } from '../../core/types.ts';
import { personAction, type PersonInput } from '../../envs/web/person.ts';
import type { EpisodeStart, PlayedStep } from '../../services/env-session.ts';
import { defaultSplit, envClient, envs, loadEnvs, onEnvCrash } from '../env-client.ts';
import { pageFrames } from '../page-frames.ts';
import { replayClient } from '../replay-client.ts';
import { trainerClient } from '../trainer-client.ts';

export interface LogEntry extends PlayedStep {
  actor: 'you' | 'oracle';
}

export const selectedEnv = signal('shop');
export const selectedSplit = signal('test');
export const taskIndex = signal(0);
export const episode = signal<EpisodeStart | null>(null);
export const log = signal<LogEntry[]>([]);
export const busy = signal(false);
export const error = signal<string | null>(null);
export const autoplay = signal(false);
/** Every step played while on is stored in the replay buffer as a real transition (a demonstration). */
export const recording = signal(false);
/** Transitions the current demonstration run holds (what the Record switch reports). */
export const recorded = signal(0);
/** Whether the Play view is on screen: only then does a click on a live page play a step. */
export const playShown = signal(false);
/** The site folder the `web` environment plays now (null: the bundled suite). */
export const openSite = signal<string | null>(null);

export const currentEnv = computed(() => envs.value.find((e) => e.name === selectedEnv.value));
export const splitSize = computed(() => currentEnv.value?.splits.find((s) => s.name === selectedSplit.value)?.size ?? 0);
export const lastResult = computed(() => log.value.at(-1)?.result ?? null);
export const observation = computed(() => {
  const last = log.value.at(-1);
  if (last) return last.result.observation;
  return episode.value?.observation ?? null;
});
export const isDone = computed(() => lastResult.value?.done ?? false);
export const totalReward = computed(() => log.value.reduce((sum, e) => sum + e.result.reward, 0));

async function guarded<T>(work: () => Promise<T>): Promise<T | undefined> {
  busy.value = true;
  error.value = null;
  try {
    return await work();
  } catch (e) {
    error.value = errorMessage(e);
    autoplay.value = false;
    return undefined;
  } finally {
    busy.value = false;
  }
}

onEnvCrash((message) => {
  error.value = message;
  autoplay.value = false;
  busy.value = false;
});

/** The env cards need the env list; the worker is asked once per page, not on every visit. */
export async function ensureEnvs(): Promise<void> {
  if (envs.value.length === 0) await guarded(loadEnvs);
}

export function chooseEnv(name: string): void {
  const env = envs.value.find((e) => e.name === name);
  selectedEnv.value = name;
  selectedSplit.value = defaultSplit(env);
  taskIndex.value = 0;
}

/** The demonstration run of each environment this page session (one run per env, deletable in the Buffer view). */
const demoRuns = new Map<string, string>();
/** This episode's id within its demonstration run. */
let episodeKey = '';

export async function startEpisode(): Promise<void> {
  autoplay.value = false;
  await guarded(async () => {
    episode.value = await envClient().start(selectedEnv.value, selectedSplit.value, taskIndex.value);
    episodeKey = Date.now().toString(36);
    log.value = [];
  });
}

/** Plays one step (the person's or the oracle's), shows it, and records it when recording is on. */
async function play(actor: LogEntry['actor'], step: () => Promise<PlayedStep>): Promise<void> {
  if (!episode.value || isDone.value) return;
  await guarded(async () => {
    const before = observation.value as Observation;
    const history = log.value.map((e) => e.action);
    const played = await step();
    log.value = [...log.value, { actor, ...played }];
    if (recording.value) await record(played, before, history);
  });
}

async function record(played: PlayedStep, state: Observation, history: string[]): Promise<void> {
  const task = (episode.value as EpisodeStart).task;
  let runId = demoRuns.get(task.env);
  if (!runId) {
    runId = `demo-${task.env}-${Date.now().toString(36)}`;
    demoRuns.set(task.env, runId);
  }
  const transition = realTransition({ runId, episodeId: `${runId}/${episodeKey}`, task, history, state, action: played.action, result: played.result, createdAt: Date.now() });
  try {
    recorded.value = (await replayClient().recordDemonstration({ id: runId, env: task.env }, [transition])).runTransitions;
  } catch (e) {
    throw new Error(`The step was played but not recorded: ${errorMessage(e)}`, { cause: e });
  }
}

export async function act(action: string): Promise<void> {
  await play('you', () => envClient().step(action));
}

export async function oracleStep(): Promise<void> {
  await play('oracle', () => envClient().oracleStep());
}

/** What a person did on the live page, played as the action it means (or why it cannot be). */
export async function actOnPage(input: PersonInput): Promise<void> {
  const obs = observation.value;
  if (!playShown.value || !episode.value || !obs || isDone.value || busy.value || autoplay.value) return;
  const action = personAction(input, obs.actions);
  if (action === null) {
    error.value = `What you did on the page (${input.kind} on element #${input.id}) is not an action the agent could take here, so nothing happened. The actions it has are listed beside the state.`;
    return;
  }
  await act(action);
}

// A person's inputs play one after another (typing then Enter is two steps, posted together).
let personSteps = Promise.resolve();
pageFrames.onPerson((input) => {
  personSteps = personSteps.then(() => actOnPage(input));
});

/**
 * A folder the person opened (its files, by their path in the folder) becomes the `web`
 * environment: the files stay on this page, which writes them into the frames; the worker checks
 * `site.json` as the CLI's `--site` does.
 */
export async function openSiteFolder(folder: string, files: ReadonlyMap<string, Blob>): Promise<void> {
  await guarded(async () => {
    const manifest = files.get('site.json');
    if (!manifest) throw new Error(`the folder ${folder} has no site.json at its top (see docs/web.md, "Bring your own site")`);
    let json: unknown;
    try {
      json = JSON.parse(await manifest.text());
    } catch (e) {
      throw new Error(`${folder}/site.json is not valid JSON: ${errorMessage(e)}`, { cause: e });
    }
    // The worker checks the folder and names its site; its pages open only at the first reset, by then the frames hold its files.
    const opened = await envClient().openSite(json, [...files.keys()], folder);
    pageFrames.addSite(opened.site, files);
    // Train and Evaluate (the trainer worker) play the same site.
    await trainerClient().openSite(json, [...files.keys()], folder);
    envs.value = envs.value.map((e) => (e.name === opened.env.name ? opened.env : e));
    openSite.value = opened.site;
    chooseEnv(opened.env.name);
    episode.value = null;
    log.value = [];
  });
}

/** The bundled suite is the `web` environment again. */
export async function closeSiteFolder(): Promise<void> {
  await guarded(async () => {
    await envClient().closeSite();
    await trainerClient().closeSite();
    envs.value = await envClient().listEnvs();
    openSite.value = null;
    episode.value = null;
    log.value = [];
  });
}

/** Restart the task and let the oracle play it, one step every `delayMs`, until done or paused. */
export async function watchOracle(delayMs = 700): Promise<void> {
  await startEpisode();
  autoplay.value = true;
  while (autoplay.value && episode.value && !isDone.value) {
    await new Promise((r) => setTimeout(r, delayMs));
    if (!autoplay.value) break;
    await oracleStep();
  }
  autoplay.value = false;
}
