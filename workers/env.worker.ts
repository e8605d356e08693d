/// <reference lib="webworker" />
// Thin entry point: the environments run here, off the page's main thread, behind comlink.
import { expose } from 'comlink';
import { EnvSession } from '../src/services/env-session.ts';

expose(new EnvSession());
