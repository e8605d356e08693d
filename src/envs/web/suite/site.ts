/**
 * The bundled suite's site definition: the same shape as a user's `site.json`, kept in code so the
 * app and the CLI import it (the pages themselves are public/web/suite/, which the build ships).
 * The single-page tasks share index.html (each is tasks/<id>.js there), so an episode after
 * another starts without a reload; a task of several pages has pages of its own.
 * Its start hook hands the page the generated instance (TASK); the page runtime
 * (public/web/suite/lib/task.js) keeps the outcome in `window.task`.
 */
export const SUITE_SITE = {
  name: 'suite',
  description: 'The bundled web tasks: single widgets (after MiniWoB++) and small multi-page apps, each a generator, a page that checks its outcome, and an oracle.',
  tasks: [
    { id: 'click-button', page: 'index.html', difficulty: 1 },
    { id: 'click-link', page: 'index.html', difficulty: 1 },
    { id: 'click-button-sequence', page: 'index.html', difficulty: 2 },
    { id: 'enter-text', page: 'index.html', difficulty: 2 },
    { id: 'enter-text-enter', page: 'index.html', difficulty: 2 },
    { id: 'login-user', page: 'index.html', difficulty: 3 },
    { id: 'click-checkboxes', page: 'index.html', difficulty: 3 },
    { id: 'click-option', page: 'index.html', difficulty: 2 },
    { id: 'choose-list', page: 'index.html', difficulty: 2 },
    { id: 'click-tab', page: 'index.html', difficulty: 3 },
    { id: 'click-collapsible', page: 'index.html', difficulty: 3 },
    { id: 'click-dialog', page: 'index.html', difficulty: 2 },
    { id: 'click-menu', page: 'index.html', difficulty: 2 },
    { id: 'enter-date', page: 'index.html', difficulty: 2 },
    { id: 'signup-form', page: 'index.html', difficulty: 4 },
    { id: 'search-list', page: 'index.html', difficulty: 3 },
    { id: 'toggle-switch', page: 'index.html', difficulty: 2 },
    { id: 'browse-pages', page: 'browse-pages.html', difficulty: 3 },
    { id: 'inbox-star', page: 'index.html', difficulty: 3, app: true },
    { id: 'inbox-delete', page: 'index.html', difficulty: 3, app: true },
    { id: 'inbox-reply', page: 'index.html', difficulty: 4, app: true },
    { id: 'inbox-forward', page: 'index.html', difficulty: 4, app: true },
    { id: 'feed-like', page: 'index.html', difficulty: 3, app: true },
    { id: 'feed-share', page: 'index.html', difficulty: 3, app: true },
    { id: 'feed-follow', page: 'index.html', difficulty: 3, app: true },
    { id: 'forum-reply', page: 'index.html', difficulty: 4, app: true },
    { id: 'forum-vote', page: 'index.html', difficulty: 3, app: true },
    { id: 'admin-role', page: 'index.html', difficulty: 4, app: true },
    { id: 'admin-deactivate', page: 'index.html', difficulty: 4, app: true },
    { id: 'shop-buy', page: 'index.html', difficulty: 5, app: true },
  ],
  seeds: { train: [0, 5000], test: [100000, 100030] },
  testSplit: 'test',
  // The longest task (shop-buy) takes the oracle 9 steps.
  maxSteps: 12,
  // Every page's setup replaces its content, so the next episode of a task reuses its open page.
  reusePage: true,
  // Every task's page calls task.end(1) or task.end(0) once, when the episode is over (lib/task.js).
  rewardsAtEnd: true,
  binaryReward: true,
  hooks: { start: 'window.task.start(SEED, TASK)', reward: 'window.task.reward', done: 'window.task.done' },
};
