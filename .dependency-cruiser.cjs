/**
 * The house's floors, checked by `npm run lint` (dependency-cruiser). A folder may import its own
 * floor's folders only where a rule below allows it, and any lower floor; an import that runs up a
 * floor, or a cycle, fails the lint. docs/architecture.md draws the same picture and says why each
 * floor sits where it does. tests/unit/layering.test.ts proves the check fails on an upward import.
 */
const FLOORS = [
  ['core'], //                         contracts, seeded RNG, the state format, errors
  ['platform'], //                     tfjs backends, GPU probing, the system Chromium, whole-file writes
  ['envs'], //                         the real environments and their registry
  ['replay', 'policy'], //             replay stores and retrieval; the tfjs policy
  ['experience', 'rl'], //             experience models and the synthetic env; PPO and GRPO
  ['curriculum'], //                   task selection and variation
  ['train'], //                        the training loop
  ['jobs'], //                         the entry points every caller uses
  ['cli', 'services'], //              the Node command line; the worker services
  ['app', 'workers', 'bench', 'experiments'], // the page, the worker entry points, benches, experiments
];

/** The folder a path belongs to: `src/<name>/…` or a top-level `<name>/…`. */
const folderPattern = (name) => (['workers', 'bench', 'experiments'].includes(name) ? `^${name}/` : `^src/${name}/`);
const any = (names) => `(${names.map(folderPattern).join('|')})`;

const upward = FLOORS.flatMap((floor, level) => {
  const above = FLOORS.slice(level + 1).flat();
  return above.length === 0
    ? []
    : [{ name: `no-upward-from-${floor.join('-')}`, comment: `${floor.join(', ')} may not import a higher floor (${above.join(', ')})`, severity: 'error', from: { path: any(floor) }, to: { path: any(above) } }];
});

/** Folders on one floor that stay apart: each is a part of its own. */
const apart = [
  ['replay', 'policy'],
  ['experience', 'rl'],
  ['cli', 'services'],
  ['app', 'workers'],
  ['app', 'bench'],
  ['app', 'experiments'],
].flatMap(([a, b]) => [
  { name: `no-${a}-to-${b}`, comment: `${a} and ${b} share a floor and stay apart`, severity: 'error', from: { path: folderPattern(a) }, to: { path: folderPattern(b) } },
  { name: `no-${b}-to-${a}`, comment: `${b} and ${a} share a floor and stay apart`, severity: 'error', from: { path: folderPattern(b) }, to: { path: folderPattern(a) } },
]);

module.exports = {
  forbidden: [
    ...upward,
    ...apart,
    { name: 'no-circular', comment: 'modules that import each other cannot be read or tested apart', severity: 'error', from: {}, to: { circular: true } },
    {
      name: 'tfjs-on-the-platform-floor',
      comment: 'only src/platform loads TensorFlow.js, so the page can import names and constants without it',
      severity: 'error',
      from: { path: '^(src|workers)/', pathNot: '^src/platform/' },
      to: { path: 'node_modules/@tensorflow/' },
    },
    {
      name: 'dom-views-in-the-app',
      comment: 'only src/app renders the page (Preact)',
      severity: 'error',
      from: { path: '^(src|workers)/', pathNot: '^src/app/' },
      to: { path: 'node_modules/(preact|@preact)/' },
    },
    { name: 'no-tests-from-src', comment: 'the product never imports its tests', severity: 'error', from: { path: '^(src|workers)/' }, to: { path: '^tests/' } },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|artifacts|scratch)/' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'node', 'default'], extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'] },
  },
};
