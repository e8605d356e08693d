// A small shop (the bundled task "shop-buy"; generator and oracle: src/envs/web/suite/apps.ts):
// search, a product page with options, the cart, checkout.
(function () {
  function shop(data) {
    const area = document.getElementById('area');
    const goal = data.goal;
    const cart = [];
    const cartButton = () => task.el('button', { type: 'button', onclick: showCart }, `Cart (${cart.length})`);

    function search(query) {
      const box = task.el('input', { type: 'search', 'aria-label': 'Search products', value: query ?? '' });
      const form = task.el('form', { role: 'search', onsubmit: (event) => { event.preventDefault(); search(box.value); } }, box);
      const words = (query ?? '').toLowerCase().split(/\s+/).filter(Boolean);
      const found = query === undefined ? [] : data.products.filter((p) => words.every((w) => p.name.toLowerCase().includes(w)));
      area.replaceChildren(
        task.el('h1', {}, 'Shop'), cartButton(), form,
        query === undefined ? '' : task.el('p', {}, `${found.length} results`),
        task.el('ul', {}, ...found.map((p) => task.el('li', {},
          task.el('a', { href: '#', onclick: (event) => { event.preventDefault(); product(p, query); } }, p.name), ` $${p.price}`))),
      );
    }

    function product(p, query) {
      const size = task.el('select', { id: 'size' }, ...p.sizes.map((s) => task.el('option', { value: s }, s)));
      area.replaceChildren(
        task.el('h1', {}, p.name), cartButton(),
        task.el('p', {}, `$${p.price}. ${p.blurb}`),
        task.el('label', { for: 'size' }, 'Size'), size,
        task.el('button', { type: 'button', onclick: () => { cart.push({ name: p.name, size: size.value }); product(p, query); } }, 'Add to cart'),
        task.el('button', { type: 'button', onclick: () => search(query) }, 'Back to results'),
      );
    }

    function showCart() {
      area.replaceChildren(
        task.el('h1', {}, 'Cart'),
        task.el('ul', {}, ...cart.map((item) => task.el('li', {}, `${item.name}, size ${item.size}`))),
        cart.length > 0 ? task.el('button', { type: 'button', onclick: checkout }, 'Checkout') : task.el('p', {}, 'The cart is empty.'),
        task.el('button', { type: 'button', onclick: () => search() }, 'Continue shopping'),
      );
    }

    function checkout() {
      const name = task.el('input', { type: 'text', id: 'name', autocomplete: 'off' });
      const error = task.el('p', { role: 'status' });
      area.replaceChildren(
        task.el('h1', {}, 'Checkout'),
        task.el('label', { for: 'name' }, 'Ship to'), name,
        task.el('button', { type: 'button', onclick: () => {
          if (name.value.trim() === '') { error.textContent = 'Enter a name to ship to.'; return; }
          const right = cart.length === 1 && cart[0].name === goal.product && cart[0].size === goal.size && name.value.trim() === goal.shipTo;
          task.end(right ? 1 : 0);
        } }, 'Place order'),
        error,
      );
    }

    search();
  }
  task.define('shop-buy', 'Shop', shop);
})();
