/**
 * In a page, with Web Locks: the checkpoint a run saves while it trains (in this or another tab) is
 * not offered as an interrupted run; the question waits instead, and once the run is gone (its tab
 * closed or reloaded, its worker crashed, here: the lock let go with the checkpoint left behind) the
 * run is offered. A run that ends forgets its checkpoint before it lets go of the lock. Two tabs
 * offered the same run cannot both resume it.
 */
import { describe, expect, it } from 'vitest';
import { MemoryReplayStore } from '../../src/replay/memory-store.ts';
import { MemoryCheckpointStore } from '../../src/services/checkpoint-store.ts';
import { MemoryNeuralModelStore } from '../../src/services/neural-model-store.ts';
import { TRAINING_LOCK, TrainerService, type TrainerServiceOptions, type TrainRequest } from '../../src/services/trainer-service.ts';

const REQUEST: TrainRequest = {
  env: 'shop',
  algo: 'grpo',
  realBudget: 100_000,
  seed: 2,
  maxDifficulty: 4,
  checkpointEverySeconds: 0,
  // Iterations as small as GRPO allows (one task, a group of two): what is pinned is when a
  // checkpoint is offered, and the tests take up to three iterations per run.
  algoConfig: { tasksPerIteration: 1, groupSize: 2, parallelEnvs: 2, epochs: 1 },
};

/** A store whose delete takes a while, as IndexedDB's may: what a tab sees before it is done shows. */
class SlowDeleteStore extends MemoryCheckpointStore<TrainRequest> {
  override async delete(): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, 300));
    await super.delete();
  }
}

/** The checkpoint of a run interrupted after its first iteration (left in its store, as a closed tab leaves it); trained once for the tests that start from one. */
let interrupted: Promise<NonNullable<MemoryCheckpointStore<TrainRequest>['saved']>> | undefined;

async function trainUntilInterrupted(): Promise<NonNullable<MemoryCheckpointStore<TrainRequest>['saved']>> {
  const store = new MemoryCheckpointStore<TrainRequest>();
  const training = new TrainerService({ openReplayStore: async () => new MemoryReplayStore(), openModelStore: async () => new MemoryNeuralModelStore(), openCheckpointStore: async () => store });
  await training.init(['cpu']);
  let kept: typeof store.saved;
  await training.train(REQUEST, (event) => {
    if (event.kind === 'checkpoint' && event.iteration === 1) {
      kept = store.saved;
      training.stop();
    }
  });
  expect(kept).toBeDefined();
  return kept!;
}

/** A store of its own holding the interrupted run's checkpoint (a copy: the test may resume and end it), and services' options over it. */
async function interruptedRun(): Promise<{ store: MemoryCheckpointStore<TrainRequest>; options: TrainerServiceOptions }> {
  const kept = await (interrupted ??= trainUntilInterrupted());
  const store = new MemoryCheckpointStore<TrainRequest>();
  store.saved = { ...kept, bytes: kept.bytes.slice() };
  const options = { openReplayStore: async () => new MemoryReplayStore(), openModelStore: async () => new MemoryNeuralModelStore(), openCheckpointStore: async () => store };
  return { store, options };
}

describe('an interrupted run, as another tab sees it (real Chromium, Web Locks)', () => {
  it('is not offered while a tab trains it; the answer waits, and an ended run leaves nothing', async () => {
    const store = new SlowDeleteStore();
    const options = { openReplayStore: async () => new MemoryReplayStore(), openModelStore: async () => new MemoryNeuralModelStore(), openCheckpointStore: async () => store };
    const training = new TrainerService(options);
    const otherTab = new TrainerService(options);
    await training.init(['cpu']);
    let answered = false;
    let answer: Promise<unknown> = Promise.resolve('not asked');
    let answeredWhileTraining: boolean | undefined;
    let left: typeof store.saved;
    let savedWhenLetGo: Promise<unknown> = Promise.resolve('not asked');
    await training.train(REQUEST, (event) => {
      if (event.kind !== 'checkpoint') return;
      // Asked at the first checkpoint, looked at two iterations later: the run yields to the event
      // loop between rounds all the while, so an answer that did not wait would have come.
      if (event.iteration === 1) {
        left = store.saved;
        answer = otherTab.savedRun().then((offer) => { answered = true; return offer; });
        // Granted the moment the run lets go of its lock: what the store holds then.
        savedWhenLetGo = navigator.locks.request(TRAINING_LOCK, { mode: 'exclusive' }, async () => store.saved);
      } else if (event.iteration === 3) {
        answeredWhileTraining = answered;
        training.stop();
      }
    });
    expect(left?.iteration).toBe(1);
    expect(answeredWhileTraining).toBe(false);
    // The run stopped on purpose: its checkpoint went before its lock, so the waiting tab is offered nothing.
    expect(await savedWhenLetGo).toBeUndefined();
    expect(await answer).toBeNull();
    // The run is gone, its checkpoint left behind (a closed tab): now it is offered.
    store.saved = left;
    expect(await otherTab.savedRun()).toMatchObject({ iteration: 1, request: REQUEST });
  }, 120_000);

  it('is offered as soon as the page that trained it lets go of the lock (a reload)', async () => {
    const { options } = await interruptedRun();
    // The old page's worker still holds the lock when the reloaded page asks.
    let letGo = () => {};
    const held = navigator.locks.request(TRAINING_LOCK, { mode: 'shared' }, () => new Promise<void>((resolve) => { letGo = resolve; }));
    let offer: unknown = 'not answered';
    const reloaded = new TrainerService(options);
    const answer = reloaded.savedRun().then((o) => { offer = o; });
    // The view asks again (the person went to another view and back): both are answered.
    const askedAgain = reloaded.savedRun();
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(offer).toBe('not answered');
    letGo();
    await held;
    await answer;
    expect(offer).toMatchObject({ iteration: 1, request: REQUEST });
    expect(await askedAgain).toMatchObject({ iteration: 1, request: REQUEST });
  }, 120_000);

  it('is resumed by one tab only: a second tab that tries while it runs is told so', async () => {
    const { options } = await interruptedRun();
    const first = new TrainerService(options);
    const second = new TrainerService(options);
    await first.init(['cpu']);
    await second.init(['cpu']);
    let secondTry = null as Promise<unknown> | null;
    const resumed = await first.resumeSavedRun((event) => {
      if (event.kind !== 'iteration') return;
      // Both tabs were offered the run; the second asks while the first trains it, and the first
      // stops once the second has its answer (or, should that never come, two iterations on).
      secondTry ??= second
        .resumeSavedRun((e) => { if (e.kind === 'iteration') second.stop(); })
        .then(() => 'resumed it too', (error: unknown) => error)
        .finally(() => first.stop());
      if (event.metrics.iteration >= 3) first.stop();
    });
    expect(resumed.stopped).toBe(true);
    const refusal = await secondTry;
    expect(refusal).toBeInstanceOf(Error);
    expect((refusal as Error).message).toMatch(/being resumed in another tab/);
    // The run ended (stopped on purpose): nothing is left to resume, and nothing holds the claim.
    await expect(second.resumeSavedRun(() => {})).rejects.toThrow(/no interrupted run/);
  }, 120_000);
});
