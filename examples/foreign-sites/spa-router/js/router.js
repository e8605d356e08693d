// A tiny history-API router: routes are path patterns, views render into #app, and links marked
// data-link are intercepted so the page never reloads.
(function () {
  const routes = [];

  function compile(pattern) {
    const keys = [];
    const source = pattern.replace(/\/:(\w+)/g, (_, key) => {
      keys.push(key);
      return '/([^/]+)';
    });
    return { regex: new RegExp('^' + source + '/?$'), keys };
  }

  function match(path) {
    for (const route of routes) {
      const m = route.regex.exec(path);
      if (m) {
        const params = {};
        route.keys.forEach((k, i) => (params[k] = decodeURIComponent(m[i + 1])));
        return { route, params };
      }
    }
    return null;
  }

  function render() {
    const path = location.pathname.replace(/\/index\.html$/, '/');
    const found = match(path) || match('*');
    const root = document.getElementById('app');
    root.innerHTML = '';
    if (!found) {
      root.innerHTML = '<div class="card"><h2>Not found</h2></div>';
      return;
    }
    found.route.view(root, found.params);
    document.querySelectorAll('nav a[data-link]').forEach((a) => {
      const href = a.getAttribute('href');
      a.classList.toggle('active', href === '/' ? path === '/' : path.startsWith(href));
    });
  }

  window.router = {
    add(pattern, view) {
      routes.push({ ...compile(pattern), view });
      return this;
    },
    navigate(path) {
      if (path === location.pathname) return render();
      history.pushState({}, '', path);
      render();
    },
    render,
  };

  document.addEventListener('click', (e) => {
    const a = e.target.closest('a[data-link]');
    if (!a) return;
    e.preventDefault();
    window.router.navigate(a.getAttribute('href'));
  });
  window.addEventListener('popstate', render);
})();
