/// <reference lib="webworker" />
// The WebLLM worker. It speaks WebLLM's own message protocol (WebWorkerMLCEngineHandler here,
// WebWorkerMLCEngine on the page, see src/experience/llm/webllm-client.ts), not comlink: the handler
// owns `onmessage` and posts its own message kinds (progress, streamed chunks), so sharing this
// worker with a comlink endpoint would have each side choke on the other's messages.
import { WebWorkerMLCEngineHandler } from '@mlc-ai/web-llm';
import { withLifeline } from '../src/experience/llm/webllm-client.ts';

const handler = new WebWorkerMLCEngineHandler();
// The lifeline (a Web Lock held while this worker lives) lets the page notice a worker that died
// mid-request; everything else is WebLLM's.
self.onmessage = withLifeline(self, (event) => handler.onmessage(event));
