import { describe, expect, it } from 'vitest';
import { withLifeline, type LifelineLocks } from '../../../src/experience/llm/webllm-client.ts';

// The worker side of the WebLLM crash watch, with a lock manager the test controls; the browser
// suite runs it with the real one in a real worker (tests/browser/webllm-transport.test.ts).
const lifeline = { kind: 'dreamgym.lifeline', uuid: 'lock-1' };
const message = (data: unknown) => ({ data }) as MessageEvent<unknown>;

function harness(locks: LifelineLocks | undefined) {
  const log: string[] = [];
  const scope = { postMessage: (m: unknown) => log.push(`posted ${(m as { kind: string }).kind}`) };
  const onmessage = withLifeline(scope, (event) => log.push(`handled ${String(event.data)}`), locks);
  return { log, onmessage };
}

/** A lock manager whose grants wait until the test calls `grant()` (or `refuse()`). */
function lateLocks() {
  let grant = () => {};
  let refuse = () => {};
  const locks = {
    request: ((_name: string, callback: () => Promise<unknown>) =>
      new Promise((resolve, reject) => {
        grant = () => void callback().then(resolve);
        refuse = () => reject(new DOMException('not allowed', 'SecurityError'));
      })) as unknown as LockManager['request'],
  };
  return { locks, grant: () => grant(), refuse: () => refuse() };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('withLifeline (the WebLLM worker side of the crash watch)', () => {
  it('holds back messages until the worker holds its lock, then tells the page first and handles them in order', async () => {
    const late = lateLocks();
    const { log, onmessage } = harness(late.locks);
    onmessage(message(lifeline));
    onmessage(message('reload'));
    onmessage(message('chat'));
    await settle();
    expect(log).toEqual([]);
    late.grant();
    onmessage(message('after'));
    expect(log).toEqual(['posted dreamgym.lifeline-held', 'handled reload', 'handled chat', 'handled after']);
  });

  it('goes on without the lifeline when the lock cannot be taken', async () => {
    const late = lateLocks();
    const { log, onmessage } = harness(late.locks);
    onmessage(message(lifeline));
    onmessage(message('reload'));
    late.refuse();
    await settle();
    onmessage(message('chat'));
    expect(log).toEqual(['handled reload', 'handled chat']);
  });

  it('passes every message straight on where there are no Web Locks', () => {
    const { log, onmessage } = harness(undefined);
    onmessage(message(lifeline));
    onmessage(message('reload'));
    expect(log).toEqual(['handled reload']);
  });
});
