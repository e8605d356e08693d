/**
 * `serve`: an experience model as an OpenAI-compatible `/v1/chat/completions` endpoint. It reads
 * the project's prompt protocol back into a step, retrieves from its buffer and answers with the
 * model's prediction as the protocol's JSON. So the HTTP transport is tested against a real server,
 * and a workshop host can serve one model to a room of browsers.
 */
import { parseArgs } from 'node:util';
import { UsageError } from '../../core/errors.ts';
import { parseFaults, startChatServer } from '../../experience/llm/chat-server.ts';
import { protocolAnswerer } from '../../experience/serve-answer.ts';
import { intOption } from '../args.ts';
import { EXPERIENCE_OPTIONS, createExperienceModel, experienceK, openBufferFile } from '../experience-options.ts';
import type { CommandIO } from '../io.ts';

export const SERVE_USAGE =
  'serve --experience knn --buffer FILE.jsonl [--port P (0: any free port)] [--host 127.0.0.1] [--k 3]\n' +
  '        [--faults 429,500,malformed,slow:MS,drop (test only: one per request, in order)] [--json]';

export async function serveCommand(io: CommandIO, argv: string[], stop: Promise<void> = untilSignal()): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      ...EXPERIENCE_OPTIONS,
      buffer: { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string', default: '127.0.0.1' },
      faults: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values.experience !== 'knn') throw new UsageError('serve answers with --experience knn (an LLM is already served by its own server)');
  const model = await createExperienceModel(values);
  const k = Math.max(1, experienceK(values));
  const port = intOption(values.port, 'port', 8088, 0);
  const faults = values.faults === undefined ? [] : parseFaults(values.faults);
  const buffer = await openBufferFile(values.buffer);
  const server = await startChatServer({
    host: values.host,
    port,
    model: model.name,
    faults,
    log: (line) => io.progress(line),
    answer: protocolAnswerer(model, buffer, k),
  });
  const transitions = buffer.index.count;
  if (values.host !== '127.0.0.1' && values.host !== 'localhost') io.progress(`warning: listening on ${values.host}, reachable from other machines on this network`);
  io.progress(`serving ${model.name} over ${transitions} transitions at ${server.url}/v1/chat/completions (Ctrl-C stops)`);
  if (values.json) io.result({ url: server.url, port: server.port, model: model.name, transitions });
  else io.out(server.url);
  await stop;
  await server.close();
}

function untilSignal(): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => resolve();
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
  });
}
