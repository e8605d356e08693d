/* global store, app, router, makeStore */
// The app shell: the store, what the task asks, and how the page reports the outcome
// (app.state.outcome: null until the task is decided, then 'won' or 'lost').
window.app = {
  state: { outcome: null, task: null },
  flash: null,
  judge: () => null,
  emit(event, detail) {
    if (this.state.outcome !== null) return;
    const verdict = this.judge(event, detail);
    if (verdict !== null) this.state.outcome = verdict ? 'won' : 'lost';
  },
  updateCartCount() {
    const n = store.cart.reduce((s, l) => s + l.qty, 0);
    document.getElementById('cart-count').textContent = n ? `(${n})` : '';
  },
};

const TASKS = {
  'ship-order'(s) {
    const order = s.pick(s.orders.filter((o) => o.status !== 'Shipped'));
    return {
      text: `Mark order #${order.id} (${order.customer}) as shipped.`,
      judge: (event, detail) => (event === 'ship' || event === 'cancel' ? event === 'ship' && detail === order.id : null),
    };
  },
  'buy-product'(s) {
    const product = s.pick(s.products);
    const qty = 2 + Math.floor(s.random() * 3);
    return {
      text: `Buy ${qty} of the ${product.name}: add them to the cart and check out.`,
      judge: (event, bought) => (event === 'checkout' ? bought.length === 1 && bought[0].id === product.id && bought[0].qty === qty : null),
    };
  },
  'notify-settings'(s) {
    const topics = s.shuffle(Object.keys(s.notifications));
    const on = topics[0];
    const off = topics[1];
    s.notifications[on] = false;
    s.notifications[off] = true;
    const before = { ...s.notifications };
    return {
      text: `In Settings, under Notifications, turn on e-mails about ${on} and turn off e-mails about ${off}, then save.`,
      // The two topics flipped, every other one left as it was.
      judge: (event, prefs) => (event === 'notifications' ? Object.keys(prefs).every((t) => prefs[t] === (t === on ? true : t === off ? false : before[t])) : null),
    };
  },
};

window.startApp = function (task, seed) {
  window.store = makeStore(seed);
  store.displayName = 'Store manager';
  const made = TASKS[task](store);
  app.state = { outcome: null, task };
  app.flash = null;
  app.judge = made.judge;
  document.getElementById('task-banner').textContent = made.text;
  app.updateCartCount();
  history.replaceState({}, '', '/');
  router.render();
};

router.render();
