// The bundled suite's page runtime, after MiniWoB++. The single-page tasks share one document
// (index.html loads every tasks/<id>.js, each calling `task.define(id, title, setup)`), so a new
// episode sets the page up again without a reload; a page of its own (a task of several pages)
// sets `task.setup(data, seed)` instead. Either calls `task.end(reward)` when the episode is over.
// The env starts an episode with `task.start(SEED, TASK)` (the suite's start hook) and reads
// `task.reward` and `task.done` after every action. The instruction is shown to a person in a banner that the
// page driver does not read (aria-hidden): the env gives it to the agent in its own header line.
(function () {
  // Per frame: in the app, every page's frame shares the app tab's sessionStorage, and the host
  // names each frame (window.name) so that episodes running side by side keep apart.
  const STORAGE_KEY = `dreamgym:task:${window.name}`;
  const task = {
    kinds: {},
    id: '',
    instruction: '',
    data: null,
    seed: 0,
    reward: 0,
    done: false,
    setup: null,
    start(seed, given) {
      if (!given || typeof given !== 'object') throw new Error('this page is a task of the bundled suite; start it with its generated data');
      this.id = given.task;
      this.seed = seed;
      this.instruction = given.instruction;
      this.data = given.data;
      this.reward = 0;
      this.done = false;
      this.persist();
      showInstruction();
      document.body.classList.remove('won', 'lost');
      const kind = this.kinds[given.task];
      if (kind) {
        document.title = kind.title;
        kind.setup(given.data, seed);
        return;
      }
      if (typeof this.setup !== 'function') throw new Error(`this page has no task "${given.task}"`);
      this.setup(given.data, seed);
    },
    define(id, title, setup) {
      this.kinds[id] = { title, setup };
    },
    end(reward) {
      if (this.done) return;
      this.reward = reward;
      this.done = true;
      this.persist();
      document.body.classList.add(reward > 0 ? 'won' : 'lost');
    },
    // A task of several pages keeps its episode in the tab's sessionStorage from page to page.
    persist() {
      const { id, instruction, data, seed, reward, done } = this;
      sessionStorage.setItem(STORAGE_KEY, JSON.stringify({ id, instruction, data, seed, reward, done }));
    },
    // A page after the first renders the episode's instance with `render(data)`, when the episode
    // under way in this tab is one of task `id` (the tab may have played another task before).
    resume(id, render) {
      if (this.data === null || this.id !== id) return;
      showInstruction();
      render(this.data, this.seed);
    },
  };
  function showInstruction() {
    const banner = document.getElementById('instruction');
    if (banner) banner.textContent = task.instruction;
  }
  const saved = sessionStorage.getItem(STORAGE_KEY);
  if (saved !== null) Object.assign(task, JSON.parse(saved));
  // `el('button', { type: 'button' }, 'OK')`: a small element builder for the task pages.
  task.el = function (tag, attributes, ...children) {
    const element = document.createElement(tag);
    for (const [key, value] of Object.entries(attributes || {})) {
      if (key.startsWith('on')) element.addEventListener(key.slice(2), value);
      else if (value === true) element.setAttribute(key, '');
      else if (value !== false && value !== null && value !== undefined) element.setAttribute(key, String(value));
    }
    for (const child of children.flat()) element.append(child instanceof Node ? child : document.createTextNode(String(child)));
    return element;
  };
  window.task = task;
})();
