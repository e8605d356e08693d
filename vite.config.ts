import { defineConfig } from 'vite';

// The app is a static site: `npm run build` writes dist/, which any static host (or `vite preview`)
// serves. Workers are ES modules so they can import the same src/ code as the page.
export default defineConfig({
  base: './',
  build: { target: 'es2022', sourcemap: true },
  worker: { format: 'es' },
  server: { port: 5173 },
  preview: { port: 4173 },
});
