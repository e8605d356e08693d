/**
 * The pretrained weights' names (`pretrain`'s output, shipped in public/pretrained/web/): tfjs-,
 * DOM- and Node-free, so the app (which fetches them from the build) and the CLI (which reads them
 * from disk, pretrained.ts) name the same files.
 */

/** The word the CLI takes in place of a file: `--init pretrained`, `--policy pretrained`, `--model pretrained`. */
export const PRETRAINED = 'pretrained';

/** The environment the shipped weights were pretrained for (the generated web apps are web sites). */
export const PRETRAINED_ENV = 'web';

/** The files of a pretraining's output folder, and of the shipped weights. */
export const PRETRAINED_FILES = {
  policy: 'policy.dgp',
  model: 'model.dgx',
  card: 'card.json',
  modelCard: 'MODEL_CARD.md',
} as const;

/** Where the app build serves them from (Vite copies public/ whole), relative to its base URL. */
export const PRETRAINED_URL = `pretrained/${PRETRAINED_ENV}/`;

/** The most the shipped files may weigh together (issue 58: loaded when first needed, at most 10 MB). */
export const PRETRAINED_MAX_BYTES = 10 * 1024 * 1024;
