/**
 * Node's half of the tfjs platform. tfjs-core ships its gradient definitions only as extensionless
 * ES modules, which Node cannot load without a bundler; the union package's Node build carries them
 * pre-bundled, so importing it registers every gradient on the shared engine. The wasm backend
 * finds its .wasm binaries in its own package folder.
 */
import '@tensorflow/tfjs';
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
import { createRequire } from 'node:module';
import path from 'node:path';

export const PLATFORM_BACKENDS = ['wasm', 'cpu'] as const;

export function preparePlatform(): void {
  const require = createRequire(import.meta.url);
  const dir = path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm/package.json'));
  setWasmPaths(`${path.join(dir, 'dist')}${path.sep}`);
}
