/**
 * Global setup for the e2e suite: build the app exactly as `npm run build` does, serve dist/ with
 * Vite's static preview server on localhost, and hand its URL to the tests.
 */
import type { TestProject } from 'vitest/node';
import { build, preview } from 'vite';

declare module 'vitest' {
  export interface ProvidedContext {
    appUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  await build({ logLevel: 'warn' });
  const server = await preview({ logLevel: 'warn', preview: { host: '127.0.0.1', port: 4319, strictPort: false } });
  const url = server.resolvedUrls?.local[0];
  if (!url) throw new Error('vite preview did not report a local URL');
  project.provide('appUrl', url);
  return async () => {
    await server.close();
  };
}
