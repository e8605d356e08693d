// A searchable, sortable list with pages: the page of the bundled task "search-list" (its generator
// and oracle: src/envs/web/suite/widgets.ts).
task.define('search-list', 'Find an item', function (data) {
  const area = document.getElementById('area');
  const PAGE = 5;
  let filter = '';
  let page = 0;
  let descending = false;
  const box = task.el('input', { type: 'search', 'aria-label': 'Filter items' });
  box.addEventListener('input', () => { filter = box.value.trim().toLowerCase(); page = 0; render(); });
  const list = task.el('ul', {});
  const status = task.el('p', {});
  const prev = task.el('button', { type: 'button', onclick: () => { page--; render(); } }, 'Previous page');
  const next = task.el('button', { type: 'button', onclick: () => { page++; render(); } }, 'Next page');
  const sort = task.el('button', { type: 'button', onclick: () => { descending = !descending; render(); } }, 'Sort Z–A');
  function render() {
    const shown = data.items.filter((item) => item.toLowerCase().includes(filter)).sort((a, b) => (descending ? b.localeCompare(a) : a.localeCompare(b)));
    const pages = Math.max(1, Math.ceil(shown.length / PAGE));
    page = Math.min(Math.max(page, 0), pages - 1);
    list.replaceChildren(...shown.slice(page * PAGE, page * PAGE + PAGE).map((item) => task.el('li', {}, `${item} `,
      task.el('button', { type: 'button', 'aria-label': `Select ${item}`, onclick: () => task.end(item === data.target ? 1 : 0) }, 'Select'))));
    status.textContent = `Page ${page + 1} of ${pages}`;
    prev.disabled = page === 0;
    next.disabled = page >= pages - 1;
    sort.textContent = descending ? 'Sort A–Z' : 'Sort Z–A';
  }
  render();
  area.replaceChildren(box, sort, list, status, prev, next);
});
