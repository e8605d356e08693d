/* global store, app, router */
// The admin's views. Each renders into the router's root from window.store and reports what the
// user did through app.emit(event, detail).
(function () {
  const money = (n) => '$' + n.toFixed(2);
  const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
  const flash = () => {
    const text = window.app.flash;
    window.app.flash = null;
    return text ? `<div class="flash">${esc(text)}</div>` : '';
  };

  function home(root) {
    const pending = store.orders.filter((o) => o.status === 'Pending').length;
    root.innerHTML = `${flash()}<div class="card"><h2>Welcome back</h2>
      <p>You have ${pending} pending order${pending === 1 ? '' : 's'} and ${store.products.length} products in the catalog.</p>
      <p><a href="/orders" data-link>View orders</a> &middot; <a href="/products" data-link>Browse products</a></p></div>`;
  }

  function products(root) {
    root.innerHTML = `<div class="card"><h2>Products</h2><div class="grid">${store.products
      .map((p) => `<div class="card"><a href="/products/${p.id}" data-link>${esc(p.name)}</a><div>${money(p.price)}</div></div>`)
      .join('')}</div></div>`;
  }

  function product(root, { id }) {
    const p = store.products.find((x) => String(x.id) === id);
    if (!p) {
      root.innerHTML = '<div class="card"><h2>Product not found</h2><a href="/products" data-link>Back to products</a></div>';
      return;
    }
    root.innerHTML = `<div class="card"><h2>${esc(p.name)}</h2><p>${money(p.price)} &middot; in stock</p>
      <label class="row">Quantity <input id="qty" type="number" min="1" max="9" value="1"></label>
      <p class="error" id="qty-error"></p>
      <button class="btn" id="add">Add to cart</button>
      <p><a href="/products" data-link>Back to products</a></p></div>`;
    root.querySelector('#add').addEventListener('click', () => {
      const qty = Number(root.querySelector('#qty').value);
      if (!Number.isInteger(qty) || qty < 1 || qty > 9) {
        root.querySelector('#qty-error').textContent = 'Enter a quantity from 1 to 9.';
        return;
      }
      const line = store.cart.find((l) => l.id === p.id);
      if (line) line.qty += qty;
      else store.cart.push({ id: p.id, name: p.name, price: p.price, qty });
      app.updateCartCount();
      router.navigate('/cart');
    });
  }

  function cart(root) {
    if (store.cart.length === 0) {
      root.innerHTML = `${flash()}<div class="card"><h2>Your cart</h2><p>Your cart is empty.</p><a href="/products" data-link>Continue shopping</a></div>`;
      return;
    }
    const total = store.cart.reduce((s, l) => s + l.qty * l.price, 0);
    root.innerHTML = `<div class="card"><h2>Your cart</h2><ul>${store.cart
      .map((l) => `<li>${l.qty} × ${esc(l.name)} — ${money(l.qty * l.price)} <button class="btn secondary" data-remove="${l.id}">Remove</button></li>`)
      .join('')}</ul><p>Total: ${money(total)}</p>
      <button class="btn" id="checkout">Checkout</button> <a href="/products" data-link>Continue shopping</a></div>`;
    root.querySelectorAll('[data-remove]').forEach((b) =>
      b.addEventListener('click', () => {
        store.cart = store.cart.filter((l) => String(l.id) !== b.dataset.remove);
        app.updateCartCount();
        router.render();
      }),
    );
    root.querySelector('#checkout').addEventListener('click', () => {
      const bought = store.cart.map((l) => ({ ...l }));
      store.cart = [];
      app.updateCartCount();
      app.flash = 'Thanks! Your order was placed.';
      app.emit('checkout', bought);
      router.navigate('/');
    });
  }

  function orders(root) {
    root.innerHTML = `${flash()}<div class="card"><h2>Orders</h2><table><thead><tr><th>Order</th><th>Customer</th><th>Total</th><th>Status</th></tr></thead><tbody>${store.orders
      .map((o) => `<tr><td><a href="/orders/${o.id}" data-link>#${o.id}</a></td><td>${esc(o.customer)}</td><td>${money(o.total)}</td><td>${o.status}</td></tr>`)
      .join('')}</tbody></table></div>`;
  }

  function order(root, { id }) {
    const o = store.orders.find((x) => String(x.id) === id);
    if (!o) {
      root.innerHTML = '<div class="card"><h2>Order not found</h2><a href="/orders" data-link>Back to orders</a></div>';
      return;
    }
    const open = o.status !== 'Shipped' && o.status !== 'Cancelled';
    root.innerHTML = `<div class="card"><h2>Order #${o.id}</h2>
      <p>Customer: ${esc(o.customer)}</p><p>Total: ${money(o.total)}</p><p>Status: ${o.status}</p>
      ${open ? '<button class="btn" id="ship">Mark as shipped</button> <button class="btn danger" id="cancel">Cancel order</button>' : ''}
      <p><a href="/orders" data-link>Back to orders</a></p></div>`;
    if (!open) return;
    const set = (status) => () => {
      o.status = status;
      app.flash = `Order #${o.id} is now ${status.toLowerCase()}.`;
      app.emit(status === 'Shipped' ? 'ship' : 'cancel', o.id);
      router.navigate('/orders');
    };
    root.querySelector('#ship').addEventListener('click', set('Shipped'));
    root.querySelector('#cancel').addEventListener('click', set('Cancelled'));
  }

  const subnav = (path) => `<p class="subnav">${[['/settings', 'Profile'], ['/settings/notifications', 'Notifications'], ['/settings/security', 'Security']]
    .map(([href, label]) => (href === path ? `<b>${label}</b>` : `<a href="${href}" data-link>${label}</a>`))
    .join(' ')}</p>`;

  function settings(root) {
    root.innerHTML = `${flash()}<div class="card"><h2>Settings</h2>${subnav('/settings')}
      <h3>Profile</h3><label class="row">Display name <input id="display-name" value="${esc(store.displayName)}"></label>
      <button class="btn" id="save-profile">Save profile</button></div>`;
    root.querySelector('#save-profile').addEventListener('click', () => {
      store.displayName = root.querySelector('#display-name').value;
      app.flash = 'Profile saved.';
      router.render();
    });
  }

  function notifications(root) {
    root.innerHTML = `<div class="card"><h2>Settings</h2>${subnav('/settings/notifications')}
      <h3>Notifications</h3><p>Send me an e-mail about:</p>${Object.entries(store.notifications)
        .map(([topic, on], i) => `<label class="row"><input type="checkbox" id="n${i}" ${on ? 'checked' : ''}> ${esc(topic)}</label>`)
        .join('')}
      <button class="btn" id="save-notifications">Save preferences</button></div>`;
    root.querySelector('#save-notifications').addEventListener('click', () => {
      Object.keys(store.notifications).forEach((topic, i) => (store.notifications[topic] = root.querySelector('#n' + i).checked));
      app.flash = 'Notification preferences saved.';
      app.emit('notifications', { ...store.notifications });
      router.navigate('/settings');
    });
  }

  function security(root) {
    root.innerHTML = `<div class="card"><h2>Settings</h2>${subnav('/settings/security')}
      <h3>Security</h3><p>Two-factor authentication is on.</p><p id="signed-out"></p>
      <button class="btn secondary" id="sign-out-all">Sign out other devices</button></div>`;
    root.querySelector('#sign-out-all').addEventListener('click', () => {
      root.querySelector('#signed-out').textContent = 'Other devices were signed out.';
    });
  }

  router
    .add('/', home)
    .add('/products', products)
    .add('/products/:id', product)
    .add('/cart', cart)
    .add('/orders', orders)
    .add('/orders/:id', order)
    .add('/settings', settings)
    .add('/settings/notifications', notifications)
    .add('/settings/security', security);
})();
