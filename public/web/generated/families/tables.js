// Searchable, sortable, filterable, paginated tables (generator and oracle:
// src/envs/web/generated/families/tables.ts). Opening a record ends the episode: the goal's wins.
(function () {
  function shownRows(world, state) {
    const query = state.query.toLowerCase();
    const rows = world.rows.filter((row) => (state.kind === 'All' || row.kind === state.kind) && (query === '' || row.key.toLowerCase().includes(query)));
    if (state.sortBy !== '') {
      const sign = state.order === 'asc' ? 1 : -1;
      const value = state.sortBy === world.columns[0] ? (row) => row.key : (row) => row.amount;
      rows.sort((a, b) => (value(a) < value(b) ? -sign : value(a) > value(b) ? sign : 0));
    }
    return rows;
  }

  task.define('tables', {
    init() {
      return { view: { list: true }, query: '', kind: 'All', sortBy: '', order: 'asc', page: 1 };
    },
    render(app) {
      const { h, ui, world, state } = app;
      const plural = `${world.columns[0].toLowerCase()}s`;
      const open = (row) => () => {
        state.opened = row.key;
        app.end(row.key === app.goal.key ? 1 : 0);
        app.go({ record: row.key });
      };
      if (app.view.record) {
        const row = world.rows.find((r) => r.key === app.view.record);
        return [h('h1', {}, row.key), h('p', {}, `${world.columns[1]}: ${row.kind}`), h('p', {}, `${world.columns[2]}: ${row.amount}`), ui.button('Back to the list', () => app.go({ list: true }))];
      }
      const header = (column, sortable) => {
        if (!sortable) return column;
        const glyph = state.sortBy === column ? (state.order === 'asc' ? ' ▲' : ' ▼') : '';
        return ui.button(`${column}${glyph}`, () => {
          state.order = state.sortBy === column && state.order === 'asc' ? 'desc' : 'asc';
          state.sortBy = column;
          state.page = 1;
          app.refresh();
        });
      };
      const results = h('div', {});
      const drawResults = () => {
        const rows = shownRows(world, state);
        const pages = Math.max(1, Math.ceil(rows.length / world.pageSize));
        state.page = Math.min(state.page, pages);
        const shown = rows.slice((state.page - 1) * world.pageSize, state.page * world.pageSize);
        results.replaceChildren(...[
          h('p', {}, `${rows.length} ${rows.length === 1 ? world.columns[0].toLowerCase() : plural}`),
          ui.table(
            [header(world.columns[0], world.sort), world.columns[1], header(world.columns[2], world.sort), ''],
            shown.map((row) => ({
              cells: [world.opener === 'link' ? ui.link(row.key, open(row)) : row.key, row.kind, String(row.amount)],
              controls: world.opener === 'button' ? [ui.button('Open', open(row), `Open ${row.key}`)] : [],
            })),
          ),
          pages > 1 ? ui.pager(state.page, pages, (n) => { state.page = n; app.refresh(); }) : null,
        ].filter((node) => node !== null));
      };
      drawResults();
      let search = null;
      if (world.search) {
        search = h('input', { type: 'search', 'aria-label': `Search ${plural}`, title: `Search ${plural}`, value: state.query });
        // Results follow the query as it is typed; the box itself stays (a person's caret stays in it).
        search.addEventListener('input', () => { state.query = search.value.trim(); state.page = 1; task.persist(); drawResults(); });
      }
      return [
        h('h1', {}, `${world.columns[0]}s`),
        search ? h('form', { role: 'search', onsubmit: (event) => event.preventDefault() }, search) : null,
        world.filter ? ui.choice(world.columns[1], ['All', ...world.kinds], state.kind, (kind) => { state.kind = kind; state.page = 1; app.refresh(); }) : null,
        results,
      ];
    },
  });
})();
