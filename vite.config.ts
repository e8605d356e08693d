import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { bundlePageDriver } from './src/envs/web/node/driver-bundle.ts';

const PAGE_DRIVER = fileURLToPath(new URL('./src/envs/web/driver/index.ts', import.meta.url));

/**
 * `virtual:page-driver`: the web env's page driver as one classic script (a string), the same
 * esbuild bundle the Node host injects, for the app's frames (src/envs/web/frame/).
 */
function pageDriver(): Plugin {
  const id = '\0virtual:page-driver';
  return {
    name: 'dreamgym-page-driver',
    resolveId: { filter: { id: /^virtual:page-driver$/ }, handler: () => id },
    load: { filter: { id: /^\0virtual:page-driver$/ }, handler: async () => `export default ${JSON.stringify(await bundlePageDriver(PAGE_DRIVER))};` },
  };
}

// The app is a static site: `npm run build` writes dist/, which any static host (or `vite preview`)
// serves. Workers are ES modules so they can import the same src/ code as the page.
export default defineConfig({
  base: './',
  plugins: [
    pageDriver(),
    // Installable and offline after the first visit: the service worker precaches the app, its
    // workers, tfjs's wasm files and the bundled web pages. WebLLM's engine (12 MB, used only by the
    // webllm experience model) is cached the first time it loads; its weights stay in WebLLM's own cache.
    // So is the prediction worker (1.4 MB, started only by a dream long enough to repay it on a machine
    // of two cores or more): offline before its first load, such a dream predicts on its own thread.
    VitePWA({
      registerType: 'autoUpdate',
      injectRegister: null,
      manifest: {
        name: 'DreamGym in the browser',
        short_name: 'DreamGym',
        description: 'Train language agents with reinforcement learning in your browser: real environments, an experience model, a curriculum.',
        theme_color: '#2f5fd0',
        background_color: '#f7f7f5',
        display: 'standalone',
        icons: [{ src: 'favicon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' }],
      },
      workbox: {
        globPatterns: ['**/*.{js,css,html,svg,wasm,json,webmanifest}'],
        globIgnores: ['**/webllm-*.js', '**/llm.worker-*.js', '**/prediction.worker-*.js'],
        maximumFileSizeToCacheInBytes: 8 * 1024 * 1024,
        navigateFallbackDenylist: [/\/web\//],
        // A bundled multi-page task reads its query (`browse-pages-item.html?item=3`): match the precached page without it.
        ignoreURLParametersMatching: [/.*/],
        runtimeCaching: [
          { urlPattern: /\/assets\/(webllm|llm\.worker)-[^/]+\.js$/, handler: 'CacheFirst', options: { cacheName: 'dreamgym-webllm-engine' } },
          { urlPattern: /\/assets\/prediction\.worker-[^/]+\.js$/, handler: 'CacheFirst', options: { cacheName: 'dreamgym-prediction-worker' } },
          // The pretrained web weights (2 MB) are fetched when a web run or fit first starts from them, not precached;
          // from the network while there is one (a new build may ship new weights), else the copy kept.
          { urlPattern: /\/pretrained\/web\/[^/]+\.(dgp|dgx)$/, handler: 'NetworkFirst', options: { cacheName: 'dreamgym-pretrained' } },
        ],
      },
    }),
  ],
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
