import { describe, expect, it } from 'vitest';
import { readRoomLink } from '../../../src/app/experience/room-link.ts';
import { roomLink } from '../../../src/jobs/serve-spec.ts';

describe("a room's link", () => {
  it('carries the endpoint, model and key the host serves, and the page reads them back', () => {
    const link = new URL(roomLink('https://dreamgym.example/app/', { endpoint: 'http://192.168.1.20:8088/v1', model: 'neural', apiKey: 'k&y=1 #2' }));
    expect(link.pathname).toBe('/app/');
    expect(readRoomLink(link.hash)).toEqual({ endpoint: 'http://192.168.1.20:8088/v1', model: 'neural', apiKey: 'k&y=1 #2' });
    expect(readRoomLink(new URL(roomLink('http://127.0.0.1:5173/', { endpoint: 'http://127.0.0.1:8088/v1', model: 'knn' })).hash)).toEqual({ endpoint: 'http://127.0.0.1:8088/v1', model: 'knn' });
  });

  it('is ignored when it names no room, or a room that is not an http(s) address', () => {
    expect(readRoomLink('#experience')).toBeNull();
    expect(readRoomLink('#train?room=http://a/v1')).toBeNull();
    expect(readRoomLink('#experience?room=javascript:alert(1)')).toBeNull();
    expect(readRoomLink('#experience?room=not a url')).toBeNull();
    expect(readRoomLink('#experience?model=knn')).toBeNull();
  });
});
