/**
 * The bundled suite's site definition: the same shape as a user's `site.json`, kept in code so the
 * app and the CLI import it (the pages themselves are public/web/suite/, which the build ships).
 * Its start hook hands the page the generated instance (TASK); the page runtime
 * (public/web/suite/lib/task.js) keeps the outcome in `window.task`.
 */
export const SUITE_SITE = {
  name: 'suite',
  description: 'The bundled web tasks: single widgets (after MiniWoB++) and small multi-page apps, each a generator, a page that checks its outcome, and an oracle.',
  tasks: [
    { id: 'click-button', page: 'click-button.html', difficulty: 1 },
    { id: 'click-link', page: 'click-link.html', difficulty: 1 },
    { id: 'click-button-sequence', page: 'click-button-sequence.html', difficulty: 2 },
    { id: 'enter-text', page: 'enter-text.html', difficulty: 2 },
    { id: 'enter-text-enter', page: 'enter-text-enter.html', difficulty: 2 },
    { id: 'login-user', page: 'login-user.html', difficulty: 3 },
    { id: 'click-checkboxes', page: 'click-checkboxes.html', difficulty: 3 },
    { id: 'click-option', page: 'click-option.html', difficulty: 2 },
    { id: 'choose-list', page: 'choose-list.html', difficulty: 2 },
    { id: 'click-tab', page: 'click-tab.html', difficulty: 3 },
    { id: 'click-collapsible', page: 'click-collapsible.html', difficulty: 3 },
    { id: 'click-dialog', page: 'click-dialog.html', difficulty: 2 },
    { id: 'browse-pages', page: 'browse-pages.html', difficulty: 3 },
  ],
  seeds: { train: [0, 5000], test: [100000, 100030] },
  testSplit: 'test',
  maxSteps: 10,
  hooks: { start: 'window.task.start(SEED, TASK)', reward: 'window.task.reward', done: 'window.task.done' },
};
