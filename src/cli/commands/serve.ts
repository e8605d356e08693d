/**
 * `serve`: experience models as an OpenAI-compatible `/v1/chat/completions` endpoint, for a
 * workshop room of browsers (and the HTTP transport's tests). It reads the project's prompt protocol
 * back into a step, retrieves from its buffer and answers with the model's prediction as the
 * protocol's JSON. It serves kNN over the buffer, and with `--experience neural --model FILE.dgx`
 * that fitted model first, kNN beside it; a request's `model` picks one (`/v1/models` lists them).
 */
import { UsageError } from '../../core/errors.ts';
import { DEFAULT_RATE_LIMIT, parseFaults, startChatServer } from '../../experience/llm/chat-server.ts';
import { KnnExperienceModel } from '../../experience/knn.ts';
import { protocolAnswerer } from '../../experience/serve-answer.ts';
import type { ExperienceModel } from '../../experience/types.ts';
import { NeuralExperienceModel } from '../../experience/neural/model.ts';
import { boundedText, excerpt } from '../../core/text.ts';
import { isLoopbackHost, ROOM_KEY_BOUNDS, ROOM_KEY_ENV, roomLink, serveSpec, SERVED_KINDS, type ServedKind } from '../../jobs/serve-spec.ts';
import { createExperienceModel } from '../../jobs/experience-models/create.ts';
import { nodeBuildContext } from '../../jobs/model-file.ts';
import { openBufferFile } from '../../jobs/buffer-file.ts';
import { parseBackend, useBackend } from '../../platform/tf.ts';
import { flagNamer, numberFlags, parseCommandArgs, parseFlags, stringFlags } from '../args.ts';
import { experienceFields, experienceFlags, experienceOptions, readSecret } from '../experience-flags.ts';
import type { CommandIO } from '../io.ts';
import { whenStopAsked } from '../stop-signals.ts';

/** What serve's spec checked: the model's settings and the server's (jobs/serve-spec.ts). */
type ServeSettings = { k: number; model?: string; port: number; host: string; faults?: string; apiKey?: string; allowOrigin?: string; rateLimit: number; appUrl?: string };

/** How often the host's terminal gets the room's line (clients, requests/s, failures). */
const ROOM_REPORT_SECONDS = 10;

export const serveUsage = (): string =>
  'serve --experience knn|neural [--model FILE.dgx (neural; kNN is served beside it)] --buffer FILE.jsonl [--port P (0: any free port)]\n' +
  '        [--host 127.0.0.1 (another host needs a key)] [--k 3]\n' +
  '        [--api-key KEY | --api-key-file FILE (clients send Authorization: Bearer KEY; without either flag, $' + ROOM_KEY_ENV + ' if set)]\n' +
  '        [--allow-origin https://app.example,… (pages beyond loopback; \'*\': any, pages opened from a file included)] [--allow-private-network]\n' +
  '        [--app-url URL (prints the link participants open to join; it carries the key)] [--rate-limit N (requests/s per client, 0: none; default ' + DEFAULT_RATE_LIMIT + ')]\n' +
  '        [--log-requests (a line per request, not only failures)] [--backend wasm|cpu (neural)]\n' +
  '        [--faults 429,500,malformed,slow:MS,drop (test only: one per request, in order)] [--json]';

/** Serves until `stop` settles (default: Ctrl-C or SIGTERM, listened for once the server is up). */
export async function serveCommand(io: CommandIO, argv: string[], stop?: Promise<void>): Promise<void> {
  const { values } = (parseCommandArgs as (config: object) => { values: Record<string, string | boolean | undefined> })({
    args: argv,
    options: {
      ...experienceOptions(),
      buffer: { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string' },
      faults: { type: 'string' },
      'allow-origin': { type: 'string' },
      'allow-private-network': { type: 'boolean', default: false },
      'rate-limit': { type: 'string' },
      'app-url': { type: 'string' },
      'log-requests': { type: 'boolean', default: false },
      backend: { type: 'string', default: 'wasm' },
      json: { type: 'boolean', default: false },
    },
    strict: true,
  });
  const kind = values.experience as ServedKind | undefined;
  if (kind === undefined || !SERVED_KINDS.includes(kind)) {
    throw new UsageError(`serve answers with --experience knn, or neural --model FILE.dgx with knn beside it (an LLM is already served by its own server); got ${kind === undefined ? 'none' : excerpt(kind)}`);
  }
  // --api-key (or its file) is the server's own key here, not a model's.
  for (const flag of experienceFlags().filter((f) => !['experience', 'model', 'k', 'api-key', 'api-key-file'].includes(f))) {
    if ((values as Record<string, unknown>)[flag] !== undefined) throw new UsageError(`--${flag} does not apply to serve`);
  }
  if (kind === 'knn' && values.model !== undefined) throw new UsageError('--model FILE.dgx goes with --experience neural (kNN needs only the buffer)');
  if (kind === 'neural' && values.model === undefined) throw new UsageError('--experience neural needs --model FILE.dgx (fit one with: experience fit --env E --buffer FILE.jsonl --out FILE.dgx)');
  const apiKey = readSecret(values, { flag: 'api-key', env: ROOM_KEY_ENV, bounds: ROOM_KEY_BOUNDS });
  const input = {
    ...experienceFields({ ...values, 'api-key': undefined, 'api-key-file': undefined }),
    ...(apiKey !== undefined ? { apiKey } : {}),
    ...numberFlags(values, { port: 'port', rateLimit: 'rate-limit' }),
    ...stringFlags(values, { host: 'host', faults: 'faults', allowOrigin: 'allow-origin', appUrl: 'app-url' }),
  };
  const spec = parseFlags(serveSpec(kind), input, flagNamer(), `to serve with --experience ${kind}`) as ServeSettings;
  if (!isLoopbackHost(spec.host) && spec.apiKey === undefined) {
    throw new UsageError(`--host ${boundedText(spec.host, 100)} is reachable from other machines: set --api-key KEY, --api-key-file FILE or $${ROOM_KEY_ENV} (at least ${ROOM_KEY_BOUNDS.min} characters) so only the room's clients can call it`);
  }
  const faults = spec.faults === undefined ? [] : parseFaults(spec.faults);
  // As always, --k 0 serves with one example.
  const k = Math.max(1, spec.k);
  const buffer = await openBufferFile(values.buffer as string | undefined);
  const models: { model: ExperienceModel; env?: string }[] = [];
  if (kind === 'neural') {
    await useBackend([parseBackend(values.backend as string)]);
    // One request at a time: no batch to split over prediction workers.
    const neural = await createExperienceModel({ kind, settings: { model: spec.model, k: spec.k } }, nodeBuildContext(undefined, { count: 0 }));
    models.push({ model: neural, ...(neural instanceof NeuralExperienceModel ? { env: neural.meta.env } : {}) });
  }
  models.push({ model: new KnnExperienceModel() });
  const answerers = new Map(models.map(({ model, env }) => [model.name, protocolAnswerer(model, buffer, k, env ? { env } : {})]));
  const [first, ...others] = [...answerers.keys()] as [string, ...string[]];
  const server = await startChatServer({
    host: spec.host,
    port: spec.port,
    model: first,
    otherModels: others,
    faults,
    log: (line) => io.progress(line),
    logRequests: values['log-requests'] ? 'all' : 'failures',
    roomReport: { everySeconds: ROOM_REPORT_SECONDS, print: (line) => io.progress(line) },
    ...(spec.apiKey !== undefined ? { apiKey: spec.apiKey } : {}),
    allowedOrigins: spec.allowOrigin?.split(',').map((o) => o.trim()) ?? [],
    allowPrivateNetwork: values['allow-private-network'] === true,
    rateLimit: spec.rateLimit,
    answer: (request, _signal, model) => (answerers.get(model) as NonNullable<ReturnType<typeof answerers.get>>)(request),
  });
  const stopped = stop ?? untilSignal();
  const transitions = buffer.index.count;
  const endpoint = `${server.url}/v1`;
  if (!isLoopbackHost(spec.host)) io.progress(`listening on ${boundedText(spec.host, 100)}, reachable from other machines on this network; clients need the API key`);
  io.progress(`serving ${[first, ...others].join(' and ')} over ${transitions} transitions at ${endpoint}/chat/completions (Ctrl-C stops)`);
  const link = spec.appUrl !== undefined ? roomLink(spec.appUrl, { endpoint, model: first, apiKey: spec.apiKey }) : undefined;
  // The link carries the key on purpose (it is how participants get it): printed once, to the host who set it.
  if (link && spec.apiKey !== undefined) io.progress('the link below carries the room\'s key: share it with the room only');
  if (link) io.progress(`participants join by opening: ${link}`);
  if (values.json) io.result({ url: server.url, port: server.port, models: [first, ...others], transitions, ...(link ? { link } : {}) });
  else io.out(server.url);
  await stopped;
  await server.close();
}

function untilSignal(): Promise<void> {
  return new Promise((resolve) => whenStopAsked(() => resolve()));
}
