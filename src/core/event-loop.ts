/**
 * Give the event loop one turn. A worker training or fitting on wasm or cpu never awaits real I/O,
 * so without this its message port is never read and pause, stop and export wait for the whole
 * run. MessageChannel avoids setTimeout's 4 ms clamp in browsers; Node has setImmediate.
 */
export function yieldToEventLoop(): Promise<void> {
  if (typeof setImmediate === 'function') return new Promise((resolve) => setImmediate(resolve));
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

/**
 * A turn of the event loop at most every `everyMs` of work: call it in a long loop's body; it
 * yields (and so lets a Stop arrive) only when that much time has passed since the last turn.
 */
export function breather(everyMs = 50): () => Promise<void> {
  let last = performance.now();
  return async () => {
    const now = performance.now();
    if (now - last < everyMs) return;
    await yieldToEventLoop();
    last = performance.now();
  };
}
