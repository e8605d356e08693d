/**
 * The page's own check, run beside .dependency-cruiser.cjs by `npm run lint`: the page loads no
 * TensorFlow.js. What it needs of a worker (names, bounds, defaults) lives in tfjs-free modules.
 * Type-only imports are erased before the page runs, so this pass reads the code as compiled
 * (the main pass counts them, so that a cycle made of types still fails).
 */
module.exports = {
  extends: './.dependency-cruiser.cjs',
  forbidden: [
    {
      name: 'page-without-tfjs',
      comment: 'the page (src/app) may not load TensorFlow.js, directly or through what it imports',
      severity: 'error',
      from: { path: '^src/app/' },
      to: { path: 'node_modules/@tensorflow/', reachable: true },
    },
  ],
  options: { tsPreCompilationDeps: false },
};
