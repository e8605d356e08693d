/**
 * `serve`: an experience model as an OpenAI-compatible `/v1/chat/completions` endpoint. It reads
 * the project's prompt protocol back into a step, retrieves from its buffer and answers with the
 * model's prediction as the protocol's JSON. So the HTTP transport is tested against a real server,
 * and a workshop host can serve one model to a room of browsers.
 */
import { parseArgs } from 'node:util';
import { UsageError } from '../../core/errors.ts';
import { DEFAULT_RATE_LIMIT, parseFaults, startChatServer } from '../../experience/llm/chat-server.ts';
import { protocolAnswerer } from '../../experience/serve-answer.ts';
import { isLoopbackHost, SERVE_SPEC } from '../../jobs/serve-spec.ts';
import { flagNamer, numberFlags, parseFlags, stringFlags } from '../args.ts';
import { EXPERIENCE_OPTIONS, createExperienceModel, experienceBackend, experienceFields, openBufferFile } from '../experience-options.ts';
import type { CommandIO } from '../io.ts';

export const SERVE_USAGE =
  'serve --experience knn --buffer FILE.jsonl [--port P (0: any free port)] [--host 127.0.0.1 (another host needs --api-key)] [--k 3]\n' +
  '        [--api-key KEY (clients send Authorization: Bearer KEY)] [--allow-origin https://app.example,… (pages beyond loopback)]\n' +
  '        [--allow-private-network] [--rate-limit N (requests/s per client, 0: none; default ' + DEFAULT_RATE_LIMIT + ')]\n' +
  '        [--faults 429,500,malformed,slow:MS,drop (test only: one per request, in order)] [--json]';

/** Serves until `stop` settles (default: Ctrl-C or SIGTERM, listened for once the server is up). */
export async function serveCommand(io: CommandIO, argv: string[], stop?: Promise<void>): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      ...EXPERIENCE_OPTIONS,
      buffer: { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string' },
      faults: { type: 'string' },
      'allow-origin': { type: 'string' },
      'allow-private-network': { type: 'boolean', default: false },
      'rate-limit': { type: 'string' },
      json: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values.experience !== 'knn') throw new UsageError('serve answers with --experience knn (an LLM is already served by its own server)');
  experienceBackend(values);
  const input = {
    ...experienceFields(values),
    ...numberFlags(values, { port: 'port', rateLimit: 'rate-limit' }),
    ...stringFlags(values, { host: 'host', faults: 'faults', allowOrigin: 'allow-origin' }),
  };
  const spec = parseFlags(SERVE_SPEC, input, flagNamer(), 'to serve (it answers with --experience knn)');
  if (!isLoopbackHost(spec.host) && spec.apiKey === undefined) {
    throw new UsageError(`--host ${spec.host} is reachable from other machines: set --api-key KEY (at least 8 characters) so only the room's clients can call it`);
  }
  const faults = spec.faults === undefined ? [] : parseFaults(spec.faults);
  const model = await createExperienceModel('knn', spec);
  // As always, --k 0 serves with one example.
  const k = Math.max(1, spec.k);
  const buffer = await openBufferFile(values.buffer);
  const server = await startChatServer({
    host: spec.host,
    port: spec.port,
    model: model.name,
    faults,
    log: (line) => io.progress(line),
    ...(spec.apiKey !== undefined ? { apiKey: spec.apiKey } : {}),
    allowedOrigins: spec.allowOrigin?.split(',').map((o) => o.trim()) ?? [],
    allowPrivateNetwork: values['allow-private-network'],
    rateLimit: spec.rateLimit,
    answer: protocolAnswerer(model, buffer, k),
  });
  const stopped = stop ?? untilSignal();
  const transitions = buffer.index.count;
  if (!isLoopbackHost(spec.host)) io.progress(`listening on ${spec.host}, reachable from other machines on this network; clients need the API key`);
  io.progress(`serving ${model.name} over ${transitions} transitions at ${server.url}/v1/chat/completions (Ctrl-C stops)`);
  if (values.json) io.result({ url: server.url, port: server.port, model: model.name, transitions });
  else io.out(server.url);
  await stopped;
  await server.close();
}

function untilSignal(): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => resolve();
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
  });
}
