/// <reference lib="webworker" />
// Thin entry point: the replay buffer (IndexedDB, seeding, import/export, search) lives here, off the page's thread.
import { expose } from 'comlink';
import { ReplayService } from '../src/services/replay-service.ts';

expose(new ReplayService());
