/**
 * Where the CLI finds the pretrained weights (`--init pretrained`, `--policy pretrained`, `--model
 * pretrained`): public/pretrained/web/ of this checkout, the folder the app build ships, or the
 * folder DREAMGYM_PRETRAINED_DIR names (weights kept elsewhere; the tests' tiny run).
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UsageError } from '../core/errors.ts';
import { PRETRAINED, PRETRAINED_FILES, PRETRAINED_URL } from './pretrained-files.ts';

export { PRETRAINED };

/** The environment variable that points the CLI at another folder of pretrained weights. */
export const PRETRAINED_DIR_VARIABLE = 'DREAMGYM_PRETRAINED_DIR';

/** Where the README and the error above suggest a pretraining writes (ignored by git, outside what the app build copies). */
export const PRETRAIN_WORK_DIR = 'artifacts/pretrained-web';

/** The shipped folder in this checkout: public/ + PRETRAINED_URL. */
export const SHIPPED_PRETRAINED_DIR = resolve(fileURLToPath(new URL('../../public/', import.meta.url)), PRETRAINED_URL);

export interface PretrainedPaths {
  dir: string;
  policy: string;
  model: string;
  card: string;
  modelCard: string;
}

/** The folder the CLI reads pretrained weights from. */
export function pretrainedDir(environment: Readonly<Record<string, string | undefined>> = process.env): string {
  const named = environment[PRETRAINED_DIR_VARIABLE];
  return named !== undefined && named !== '' ? resolve(named) : SHIPPED_PRETRAINED_DIR;
}

/**
 * The pretrained files; `need` names the one the caller reads, refused with how to make it when
 * it is not there (a checkout ships only a README until a pretraining's output is committed).
 */
export function pretrainedPaths(need?: 'policy' | 'model', environment: Readonly<Record<string, string | undefined>> = process.env): PretrainedPaths {
  const dir = pretrainedDir(environment);
  const paths: PretrainedPaths = {
    dir,
    policy: join(dir, PRETRAINED_FILES.policy),
    model: join(dir, PRETRAINED_FILES.model),
    card: join(dir, PRETRAINED_FILES.card),
    modelCard: join(dir, PRETRAINED_FILES.modelCard),
  };
  if (need !== undefined && !existsSync(paths[need])) {
    // The shipped folder is served by the app build whole: a pretraining runs elsewhere and only its four files are copied in.
    const how =
      dir === SHIPPED_PRETRAINED_DIR
        ? `run \`npm run -s cli -- pretrain --out ${PRETRAIN_WORK_DIR}\` and copy its ${Object.values(PRETRAINED_FILES).join(', ')} here, or set ${PRETRAINED_DIR_VARIABLE}=${PRETRAIN_WORK_DIR}`
        : `run \`npm run -s cli -- pretrain --out ${dir}\` (the folder ${PRETRAINED_DIR_VARIABLE} names), or unset ${PRETRAINED_DIR_VARIABLE} to use the shipped weights`;
    throw new UsageError(`no pretrained weights in ${dir} (${PRETRAINED_FILES[need]} is missing): ${how}`);
  }
  return paths;
}

/** The file a flag names, with the word `pretrained` read as the shipped weights' `kind` file. */
export function pretrainedOr(value: string, kind: 'policy' | 'model'): string {
  return value === PRETRAINED ? pretrainedPaths(kind)[kind] : value;
}
