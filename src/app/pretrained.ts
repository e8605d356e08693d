/**
 * The pretrained web weights the build ships (public/pretrained/web/, pretrain's output): whether
 * this build has them, and the choice to start from them, which is on by default for web. The
 * Train view starts a web run from the pretrained policy, the Experience view fine-tunes the
 * pretrained model on the buffer; the workers fetch the files (services/pretrained-fetch.ts) from
 * the URLs resolved here, against the page's base as the web pages are (page-frames.ts).
 */
import { signal } from '@preact/signals';
import { PRETRAINED_ENV, PRETRAINED_FILES, PRETRAINED_URL } from '../jobs/pretrained-files.ts';

/** null until asked; then whether the build serves the pretrained policy and model. */
export const pretrainedShipped = signal<boolean | null>(null);
/** The Train view's choice: a web run starts from the pretrained policy. */
export const startFromPretrainedPolicy = signal(true);
/** The Experience view's choice: a web fit fine-tunes the pretrained model. */
export const fineTunePretrainedModel = signal(true);

export function pretrainedUrl(kind: 'policy' | 'model' | 'card'): string {
  return new URL(`${PRETRAINED_URL}${PRETRAINED_FILES[kind]}`, document.baseURI).href;
}

let asked: Promise<boolean> | null = null;

/**
 * Whether the build ships the weights (its card answers), asked once per page. A GET, not a HEAD:
 * the service worker precaches the card and answers GETs alone, so the question is answered offline too.
 */
export function checkPretrainedShipped(): Promise<boolean> {
  asked ??= fetch(pretrainedUrl('card'))
    .then((response) => response.ok)
    .catch(() => false)
    .then((shipped) => (pretrainedShipped.value = shipped));
  return asked;
}

/**
 * The pretrained start a request for `env` carries: for web, once the build is known to ship the
 * weights (asked here the first time) and where the person left the choice on.
 */
export async function pretrainedInit(env: string, kind: 'policy' | 'model'): Promise<{ url: string } | undefined> {
  if (env !== PRETRAINED_ENV) return undefined;
  const chosen = kind === 'policy' ? startFromPretrainedPolicy.value : fineTunePretrainedModel.value;
  return chosen && (await checkPretrainedShipped()) ? { url: pretrainedUrl(kind) } : undefined;
}
