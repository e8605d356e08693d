import { defineConfig } from 'vite';

// The app is a static site: `npm run build` writes dist/, which any static host (or `vite preview`)
// serves. Workers are ES modules so they can import the same src/ code as the page.
export default defineConfig({
  base: './',
  build: { target: 'es2022', sourcemap: true },
  worker: { format: 'es' },
  server: { port: 5173 },
  // Pre-bundle the workers' dependencies up front: discovered late (inside a worker), they would make
  // the dev server and browser tests reload mid-run.
  optimizeDeps: {
    include: [
      'idb',
      'minisearch',
      'valibot',
      '@tensorflow/tfjs-core',
      '@tensorflow/tfjs-core/dist/register_all_gradients',
      '@tensorflow/tfjs-backend-cpu',
      '@tensorflow/tfjs-backend-wasm',
      '@tensorflow/tfjs-backend-webgpu',
      '@noble/hashes/sha2.js',
      '@noble/hashes/utils.js',
      'comlink',
      '@mlc-ai/web-llm',
    ],
  },
  preview: { port: 4173 },
});
