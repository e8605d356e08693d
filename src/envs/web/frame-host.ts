/**
 * The web env's host in a browser (the `#page-host` import there): the app's page keeps the pages
 * in frames beside the view (src/envs/web/frame/), and an env in a worker reaches them through
 * the port the page attached (page-frames.ts).
 */
import { UsageError } from '../../core/errors.ts';
import type { PageHostFactory } from './host.ts';
import { pageFrames, remotePageHost } from './page-frames.ts';

export const pageHostFactory: PageHostFactory = async (site, timeouts) => {
  const frames = pageFrames();
  if (!frames) throw new UsageError('web pages need the app\'s page frames, and none are attached to this worker (the app attaches them when it starts the worker)');
  return remotePageHost(frames, site, timeouts);
};
