/**
 * The web env's host in a browser: pages in a frame beside the app. Not built yet (the issue's
 * app part); until then a web env in the app says so plainly instead of failing somewhere deep.
 */
import { UsageError } from '../../core/errors.ts';
import type { PageHostFactory } from './host.ts';

export const pageHostFactory: PageHostFactory = async () => {
  throw new UsageError('web pages as environments run under Node (the CLI) for now; the app\'s frame host is not built yet');
};
