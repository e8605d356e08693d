/**
 * The room server's rate limit (issue 60): a client that sends a new client header with every
 * request stays within its address's share, and the limiter's table stays bounded whatever the
 * clients send.
 */
import { describe, expect, it } from 'vitest';
import { CLIENTS_PER_ADDRESS, RateLimiter } from '../../../src/experience/llm/chat-server.ts';

const RATE = 5;

describe('the rate limit', () => {
  it('gives each client behind one address its own rate', () => {
    const limiter = new RateLimiter(RATE);
    const a = { address: '10.0.0.1', id: '10.0.0.1/a' };
    const b = { address: '10.0.0.1', id: '10.0.0.1/b' };
    const answered = (client: typeof a) => Array.from({ length: 3 * RATE }, () => limiter.take(client, 0)).filter((wait) => wait === 0).length;
    expect(answered(a)).toBe(2 * RATE);
    expect(answered(b)).toBe(2 * RATE);
    // A second later, a second's worth again.
    expect(limiter.take(a, 1000)).toBe(0);
  });

  it('caps an address, however many client ids it makes up', () => {
    const limiter = new RateLimiter(RATE);
    let answered = 0;
    for (let i = 0; i < 10 * CLIENTS_PER_ADDRESS * RATE; i++) if (limiter.take({ address: '10.0.0.9', id: `10.0.0.9/made-up-${i}` }, 0) === 0) answered++;
    expect(answered).toBe(2 * RATE * CLIENTS_PER_ADDRESS);
    // Another address is not held back by it.
    expect(limiter.take({ address: '10.0.0.10', id: '10.0.0.10' }, 0)).toBe(0);
  });

  it('keeps a bounded table when every request comes from a new client', () => {
    const limiter = new RateLimiter(RATE);
    for (let i = 0; i < 60_000; i++) limiter.take({ address: `fd00::${i.toString(16)}`, id: `fd00::${i.toString(16)}/x${i}` }, i);
    expect(limiter.size).toBeLessThanOrEqual(20_000);
    // A client seen just now is still limited: the least recently used went, not it.
    const recent = { address: 'fd00::1', id: 'fd00::1/recent' };
    for (let i = 0; i < 2 * RATE; i++) limiter.take(recent, 60_000);
    expect(limiter.take(recent, 60_000)).toBeGreaterThan(0);
  });
});
