// The generated apps' page runtime. One document builds any generated app from its instance data
// (TASK.data: family, domain, widget style, navigation, the app's world and the goal; generators
// and oracles: src/envs/web/generated/). Each family's script (families/<family>.js) calls
// `task.define(family, { init, render })`: `init(data)` is the app's first state, `render(app)`
// the nodes of the view the state names, and the family's own checks call `app.end(1 or 0)` when
// the episode is over. The env starts an episode with `task.start(SEED, TASK, FAMILIES)` and reads
// `task.reward` and `task.done` after every action (the site's hooks).
//
// The app moves between its pages one of three ways (data.nav): `views` swaps the content,
// `routes` pushes a client-side route, `pages` loads another document. Every way keeps the app's
// state in the tab's sessionStorage (per frame: window.name) and the page it shows in its URL, so
// `go back` and a new document both show the state as it is now.
(function () {
  const STORAGE_KEY = `dreamgym:generated:${window.name}`;
  const task = {
    families: {},
    id: '',
    instruction: '',
    data: null,
    seed: 0,
    reward: 0,
    done: false,
    state: null,
    /** Widgets left open (a dropdown, a menu) until the next change of page. */
    open: [],
    start(seed, given, families) {
      if (!given || typeof given !== 'object' || !given.data) throw new Error('this page is a generated app; start it with its generated data (TASK)');
      const family = given.data.family;
      // A site holds only its own families: a held-out family never renders on the pretraining site.
      if (Array.isArray(families) && !families.includes(family)) throw new Error(`this site does not hold the family "${family}"`);
      const app = this.families[family];
      if (!app) throw new Error(`this page has no family "${family}"`);
      this.id = given.task;
      this.seed = seed;
      this.instruction = given.instruction;
      this.data = given.data;
      this.reward = 0;
      this.done = false;
      this.open = [];
      this.state = app.init(given.data);
      document.body.classList.remove('won', 'lost');
      if (given.data.nav !== 'views') history.replaceState({ view: this.state.view }, '', address(this.state.view));
      this.refresh();
    },
    define(family, app) {
      this.families[family] = app;
    },
    end(reward) {
      if (this.done) return;
      this.reward = reward;
      this.done = true;
      this.persist();
      document.body.classList.add(reward > 0 ? 'won' : 'lost');
    },
    /** Shows `view` (an object naming a page of the app and what it shows), the app's way. */
    go(view) {
      this.open = [];
      this.state.view = view;
      const nav = this.data.nav;
      if (nav === 'pages') {
        this.persist();
        location.assign(address(view));
        return;
      }
      if (nav === 'routes') history.pushState({ view }, '', address(view));
      this.refresh();
    },
    /** Draws the view again from the state (after any change). */
    refresh() {
      this.persist();
      const app = this.families[this.data.family];
      const area = document.getElementById('area');
      const brand = document.getElementById('brand');
      brand.textContent = this.data.name;
      document.title = this.data.name;
      showInstruction();
      const nodes = [app.render(appHandle())].flat(Infinity).filter((n) => n !== null && n !== undefined && n !== false);
      area.replaceChildren(...nodes);
      // A modal dialog leaves nothing behind it to act on, as a person finds.
      const modal = area.querySelector(':scope > .modal');
      for (const child of area.children) child.inert = modal !== null && child !== modal;
      document.getElementById('brand').inert = modal !== null;
    },
    persist() {
      const { id, instruction, data, seed, reward, done, state } = this;
      sessionStorage.setItem(STORAGE_KEY, JSON.stringify({ id, instruction, data, seed, reward, done, state }));
    },
    toggle(key) {
      this.open = this.open.includes(key) ? this.open.filter((k) => k !== key) : [...this.open, key];
      this.refresh();
    },
    isOpen(key) {
      return this.open.includes(key);
    },
  };

  /** What a family's render gets: the instance, its state, its widgets, and the ways to move on. */
  function appHandle() {
    return {
      data: task.data,
      world: task.data.world,
      goal: task.data.goal,
      state: task.state,
      view: task.state.view,
      ui: task.widgets(task.data.style),
      h: task.h,
      go: (view) => task.go(view),
      refresh: () => task.refresh(),
      end: (reward) => task.end(reward),
    };
  }

  function address(view) {
    return `index.html?at=${encodeURIComponent(JSON.stringify(view))}`;
  }

  function viewInAddress() {
    const at = new URLSearchParams(location.search).get('at');
    if (at === null) return null;
    try {
      return JSON.parse(at);
    } catch {
      return null;
    }
  }

  function showInstruction() {
    const banner = document.getElementById('instruction');
    if (banner) banner.textContent = task.instruction;
  }

  /** A document of an episode under way (a page of a `pages` app, or one gone back to): its state as it is now, at the view in its URL. */
  function resume() {
    const saved = sessionStorage.getItem(STORAGE_KEY);
    const view = viewInAddress();
    if (saved === null || view === null) return;
    Object.assign(task, JSON.parse(saved));
    if (!task.data || !task.families[task.data.family]) return;
    task.open = [];
    task.state.view = view;
    task.refresh();
    if (task.done) document.body.classList.add(task.reward > 0 ? 'won' : 'lost');
  }

  window.addEventListener('popstate', (event) => {
    if (!task.data || !event.state || !event.state.view) return;
    task.open = [];
    task.state.view = event.state.view;
    task.refresh();
  });
  // A document restored from the back-forward cache shows the state it had then; the app's is newer.
  window.addEventListener('pageshow', (event) => {
    if (event.persisted) resume();
  });
  document.addEventListener('DOMContentLoaded', resume);

  // `h('button', { type: 'button', onclick }, 'OK')`: the element builder of the apps' pages.
  task.h = function (tag, attributes, ...children) {
    const element = document.createElement(tag);
    for (const [key, value] of Object.entries(attributes || {})) {
      if (key.startsWith('on') && typeof value === 'function') element.addEventListener(key.slice(2), value);
      else if (key === 'value' && (tag === 'input' || tag === 'textarea')) element.value = value;
      else if (value === true) element.setAttribute(key, '');
      else if (value !== false && value !== null && value !== undefined) element.setAttribute(key, String(value));
    }
    for (const child of children.flat(Infinity)) {
      if (child === null || child === undefined || child === false) continue;
      element.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return element;
  };
  window.task = task;
})();
