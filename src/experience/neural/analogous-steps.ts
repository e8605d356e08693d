/**
 * The retrieved examples that took this action relative to their own task (task-relative.ts): the
 * evidence they give the transition head, and whether one of them vouches for a success here.
 */
import type { ExperienceInput } from '../types.ts';
import type { ExampleView } from './example-view.ts';
import { namesTask, preparationRepeated, relativeForm, taskNames, timesTaken } from './task-relative.ts';

/** The dense values taskRelativeEvidence adds. */
export const TASK_RELATIVE_DENSE = 11;

/**
 * The examples that took this action *relative to their own task* (its task-naming words as `·`),
 * split by reward, with what both readers of them ask: how much of a rewarded (or unrewarded) one's
 * task-naming history ours repeats, and how often each had taken it before.
 */
function analogousSteps(input: ExperienceInput, views: readonly ExampleView[]) {
  const names = taskNames(input.task.instruction);
  const ours = relativeForm(input.action, names);
  const history = input.history.map((h) => h.action);
  const alike = views.filter((v) => relativeForm(v.example.action, taskNames(v.example.instruction)) === ours);
  return {
    ours,
    alike,
    rewarded: alike.filter((v) => v.example.reward > 0.5),
    unrewarded: alike.filter((v) => v.example.reward <= 0.5),
    /** Times ours took it before this step. */
    taken: timesTaken(ours, history, names),
    repeated: (v: ExampleView): number => preparationRepeated(history, names, v.example.history, taskNames(v.example.instruction)),
    takenBy: (v: ExampleView): number => timesTaken(ours, v.example.history, taskNames(v.example.instruction)),
  };
}

/**
 * What the examples that took this action relative to their own task say: how many did, their
 * mean reward and done, and how much of the task-naming history of a rewarded (and of an
 * unrewarded) one ours repeats. A rewarded example that cleaned its object before putting it where
 * its task wanted speaks for a put here only if this history cleaned ours too. Then the same for
 * those of them whose task is of our kind (taskForm), -1 where there is none.
 */
export function taskRelativeEvidence(input: ExperienceInput, views: readonly ExampleView[]): number[] {
  const { ours, alike, rewarded, unrewarded, taken, repeated, takenBy } = analogousSteps(input, views);
  const mean = (xs: readonly number[]): number => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);
  const takenByRewarded = rewarded.map(takenBy);
  // Of those, the ones whose task reads as ours relative to their action (taskForm): the same kind of task.
  const sameTask = alike.filter((v) => v.sameTask);
  return [
    alike.length / Math.max(1, views.length),
    mean(alike.map((v) => v.example.reward)),
    mean(alike.map((v) => (v.example.done ? 1 : 0))),
    namesTask(ours) ? 1 : 0,
    Math.max(0, ...rewarded.map(repeated)),
    Math.max(0, ...unrewarded.map(repeated)),
    taken / 2,
    // Whether we took it as often before as a rewarded example had (1), more or fewer (0); -1 without one.
    takenByRewarded.length === 0 ? -1 : takenByRewarded.some((n) => n === taken) ? 1 : 0,
    sameTask.length / Math.max(1, views.length),
    sameTask.length === 0 ? -1 : mean(sameTask.map((v) => v.example.reward)),
    sameTask.length === 0 ? -1 : mean(sameTask.map((v) => (v.example.done ? 1 : 0))),
  ];
}

/**
 * Whether a retrieved example vouches for a success here: one that took this action relative to its
 * own task, was rewarded, and whose task-naming preparation ours repeated, as often. A model that
 * imagines predicts no success without one (see NeuralExperienceModel.predict): a policy trained in
 * a dream goes wherever the model is wrong, and a home dream's policy learned to put the wrong
 * object, or the right one uncleaned, where an example of another task had been paid.
 */
export function successSupported(input: ExperienceInput, views: readonly ExampleView[]): boolean {
  const { rewarded, taken, repeated, takenBy } = analogousSteps(input, views);
  return rewarded.some((v) => repeated(v) === 1 && takenBy(v) === taken);
}
