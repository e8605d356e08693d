/**
 * The shipped pretrained web weights, fetched by a worker from the app's build (public/pretrained/web/,
 * served at PRETRAINED_URL): the Train view starts a web run from the pretrained policy, and the
 * Experience view fine-tunes the pretrained model, when the person leaves that choice on. The page
 * resolves the URL against its own base (a worker's location is its script's, under assets/), and
 * the worker fetches it when the run or the fit starts: the bytes are never held by a page or a
 * saved run's request, and a resumed run fetches them again (its checkpoint checks their digest).
 */
import { DreamGymError, errorMessage } from '../core/errors.ts';
import { PRETRAINED_MAX_BYTES } from '../jobs/pretrained-files.ts';

export type PretrainedKind = 'policy' | 'model';

const WHAT: Record<PretrainedKind, string> = { policy: 'pretrained web policy', model: 'pretrained web experience model' };

/** The file at `url` as the initial weights of a run or a fit, or an error that says what is wrong and what to do instead. */
export async function fetchPretrained(url: string, kind: PretrainedKind, fetcher: typeof fetch = fetch): Promise<{ name: string; bytes: Uint8Array }> {
  const what = WHAT[kind];
  const instead = kind === 'policy' ? 'start from a fresh policy (untick the pretrained start)' : 'fit from nothing (untick the pretrained start)';
  let response: Response;
  try {
    response = await fetcher(url);
  } catch (error) {
    throw new DreamGymError('pretrained', `the ${what} could not be fetched from ${url} (${errorMessage(error)}); ${instead}`, { cause: error });
  }
  if (!response.ok) {
    const missing = response.status === 404 ? 'this build does not ship it (public/pretrained/web/ is empty: see its README)' : `the server answered ${response.status}`;
    throw new DreamGymError('pretrained', `the ${what} is not available at ${url}: ${missing}; ${instead}`);
  }
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (declared > PRETRAINED_MAX_BYTES) throw new DreamGymError('pretrained', `the ${what} at ${url} is ${declared} bytes, more than the ${PRETRAINED_MAX_BYTES} the shipped weights may weigh; ${instead}`);
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (bytes.byteLength > PRETRAINED_MAX_BYTES) throw new DreamGymError('pretrained', `the ${what} at ${url} is ${bytes.byteLength} bytes, more than the ${PRETRAINED_MAX_BYTES} the shipped weights may weigh; ${instead}`);
  return { name: `pretrained (${url})`, bytes };
}
