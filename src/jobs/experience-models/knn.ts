/** The kNN floor (experience/knn.ts): the next state of the most similar real transition; reads only the buffer. */
import { KnnExperienceModel } from '../../experience/knn.ts';
import type { ExperienceModelEntry } from './entry.ts';

export const knnExperience: ExperienceModelEntry = {
  kind: 'knn',
  label: 'kNN',
  help: 'copies what happened after the most similar real transition in the buffer; no download, the floor every model must beat',
  runsIn: ['node', 'worker'],
  settings: {},
  build: async () => new KnnExperienceModel(),
};
