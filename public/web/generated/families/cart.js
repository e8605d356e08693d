// Carts and checkout (generator and oracle: src/envs/web/generated/families/cart.ts). Placing the
// order ends the episode: the goal's items in their options, shipped as it says, win.
(function () {
  task.define('cart', {
    init(data) {
      return { view: { shop: true }, cart: [], choice: {}, shipping: { name: '', address: '', delivery: data.world.deliveries[0] }, query: '', error: '' };
    },
    render(app) {
      const { h, ui, world, goal, state } = app;
      const cartButton = ui.button(`Cart (${state.cart.length})`, () => app.go({ cart: true }));
      const toShop = () => app.go({ shop: true });
      const v = app.view;
      if (v.product) {
        const product = world.products.find((p) => p.name === v.product);
        const choice = state.choice[product.name] || '';
        return [
          ui.breadcrumbs([{ label: 'Shop', pick: toShop }], product.name), cartButton,
          h('h1', {}, product.name),
          h('p', {}, `$${product.price}`),
          ui.choice(world.option.label, world.option.values, choice, (value) => { state.choice[product.name] = value; state.error = ''; app.refresh(); }),
          state.error !== '' ? h('p', { role: 'alert', class: 'error' }, state.error) : null,
          ui.button('Add to cart', () => {
            if (choice === '') { state.error = `Choose a ${world.option.label.toLowerCase()} first.`; return app.refresh(); }
            state.cart.push({ name: product.name, choice });
            state.notice = `${product.name} was added to your cart.`;
            app.refresh();
          }),
          state.notice ? ui.toast(state.notice, []) : null,
          ui.button('Back to the shop', () => { state.notice = ''; toShop(); }),
        ];
      }
      if (v.cart) {
        return [
          h('h1', {}, 'Cart'),
          state.cart.length === 0 ? h('p', {}, 'Your cart is empty.') : ui.table(['Item', world.option.label, ''], state.cart.map((item, i) => ({
            cells: [item.name, item.choice],
            controls: [ui.button('Remove', () => { state.cart.splice(i, 1); app.refresh(); }, `Remove ${item.name}`)],
          }))),
          state.cart.length > 0 ? ui.button('Checkout', () => app.go({ checkout: 'shipping' })) : null,
          ui.button('Back to the shop', toShop),
        ];
      }
      if (v.checkout === 'shipping') {
        const s = state.shipping;
        return [
          h('h1', {}, 'Checkout'), h('h2', {}, 'Shipping'),
          ui.text('Full name', s.name, (value) => { s.name = value; task.persist(); }),
          ui.text('Address', s.address, (value) => { s.address = value; task.persist(); }),
          ui.radios('Delivery', world.deliveries, s.delivery, (value) => { s.delivery = value; app.refresh(); }),
          state.error !== '' ? h('p', { role: 'alert', class: 'error' }, state.error) : null,
          ui.button('Continue', () => {
            state.error = s.name === '' ? 'Enter the name to ship to.' : !/\d/.test(s.address) ? 'Enter an address with a house number.' : '';
            if (state.error !== '') return app.refresh();
            app.go({ checkout: 'review' });
          }),
          ui.button('Back to the cart', () => app.go({ cart: true })),
        ];
      }
      if (v.checkout === 'review') {
        const s = state.shipping;
        return [
          h('h1', {}, 'Checkout'), h('h2', {}, 'Review'),
          h('ul', {}, state.cart.map((item) => h('li', {}, `${item.name}, ${item.choice}`))),
          h('p', {}, `Ship to ${s.name}, ${s.address}, ${s.delivery}.`),
          ui.button('Place order', () => {
            const items = (list) => list.map((i) => `${i.name}|${i.choice}`).sort().join(',');
            const right = items(state.cart) === items(goal.items) && s.name === goal.shipTo && s.address === goal.address && s.delivery === goal.delivery;
            state.placed = true;
            app.end(right ? 1 : 0);
            app.refresh();
          }),
          ui.button('Back to shipping', () => app.go({ checkout: 'shipping' })),
          state.placed ? h('p', { role: 'status' }, 'Thank you for your order.') : null,
        ];
      }
      const search = h('input', { type: 'search', 'aria-label': 'Search the shop', title: 'Search the shop', value: state.query });
      const list = h('ul', {});
      const draw = () => list.replaceChildren(...world.products.filter((p) => p.name.toLowerCase().includes(state.query.toLowerCase()))
        .map((p) => h('li', {}, ui.link(p.name, () => { state.notice = ''; app.go({ product: p.name }); }), ` $${p.price}`)));
      search.addEventListener('input', () => { state.query = search.value.trim(); task.persist(); draw(); });
      draw();
      return [h('h1', {}, 'Shop'), cartButton, h('form', { role: 'search', onsubmit: (event) => event.preventDefault() }, search), list];
    },
  });
})();
