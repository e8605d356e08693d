// Master–detail records with edit and save (generator and oracle:
// src/envs/web/generated/families/records.ts). Every save is checked against the goal: a change
// it does not ask for loses at once; the save that completes it wins.
(function () {
  const shown = (value) => (value === true ? 'Yes' : value === false ? 'No' : value);

  function problem(field, value) {
    if (field.kind === 'text' && value === '') return `${field.label} cannot be empty.`;
    if (field.kind === 'number' && (!/^\d+$/.test(value) || Number(value) < field.min || Number(value) > field.max)) return `${field.label} must be a number from ${field.min} to ${field.max}.`;
    return null;
  }

  /** Every field that differs from the start is asked for by the goal (with that value); all of them are done. */
  function judge(world, goal, records) {
    let complete = true;
    for (const record of records) {
      const start = world.records.find((r) => r.key === record.key).values;
      const asked = (goal.changes.find((c) => c.key === record.key) || { values: {} }).values;
      for (const field of world.fields) {
        const now = record.values[field.label];
        const want = asked[field.label];
        if (now !== start[field.label] && now !== want) return 'wrong';
        if (want !== undefined && now !== want) complete = false;
      }
    }
    return complete ? 'done' : 'partial';
  }

  task.define('records', {
    init(data) {
      return { view: { list: true }, records: data.world.records.map((r) => ({ key: r.key, values: { ...r.values } })), draft: null, error: '', notice: '' };
    },
    render(app) {
      const { h, ui, world, state } = app;
      const plural = `${world.noun.charAt(0).toUpperCase()}${world.noun.slice(1)}s`;
      const toList = () => app.go({ list: true });
      if (app.view.edit) {
        const record = state.records.find((r) => r.key === app.view.edit);
        if (!state.draft || state.draft.key !== record.key) state.draft = { key: record.key, values: { ...record.values } };
        const draft = state.draft.values;
        const set = (label, redraw) => (value) => {
          draft[label] = value;
          if (redraw) app.refresh();
          else task.persist();
        };
        const controls = world.fields.map((field) => {
          if (field.kind === 'choice') return ui.choice(field.label, field.options, draft[field.label], set(field.label, true));
          if (field.kind === 'flag') return ui.checkbox(field.label, draft[field.label], set(field.label, true));
          return ui.text(field.label, draft[field.label], set(field.label, false), { type: field.kind === 'number' && ui.style === 'native' ? 'number' : undefined });
        });
        const save = () => {
          state.error = world.fields.map((f) => problem(f, draft[f.label])).find((p) => p !== null) || '';
          if (state.error !== '') return app.refresh();
          record.values = { ...draft };
          state.draft = null;
          state.notice = `${record.key} was saved.`;
          const verdict = judge(world, app.goal, state.records);
          if (verdict === 'wrong') app.end(0);
          if (verdict === 'done') app.end(1);
          app.go({ record: record.key });
        };
        return [
          ui.breadcrumbs([{ label: plural, pick: toList }, { label: record.key, pick: () => app.go({ record: record.key }) }], 'Edit'),
          h('h1', {}, `Edit ${record.key}`),
          h('form', { onsubmit: (event) => event.preventDefault(), novalidate: true }, controls),
          state.error !== '' ? h('p', { role: 'alert', class: 'error' }, state.error) : null,
          ui.button('Save', save),
          ui.button('Cancel', () => { state.draft = null; app.go({ record: record.key }); }),
        ];
      }
      if (app.view.record) {
        const record = state.records.find((r) => r.key === app.view.record);
        const notice = state.notice;
        state.notice = '';
        return [
          ui.breadcrumbs([{ label: plural, pick: toList }], record.key),
          h('h1', {}, record.key),
          notice !== '' ? ui.toast(notice, []) : null,
          world.fields.map((field) => h('p', {}, `${field.label}: ${shown(record.values[field.label])}`)),
          ui.button('Edit', () => app.go({ edit: record.key })),
          ui.button('Back to the list', toList),
        ];
      }
      const [first] = world.fields;
      return [
        h('h1', {}, plural),
        ui.table([plural.slice(0, -1), first.label, ''], state.records.map((record) => ({
          cells: [world.opener === 'link' ? ui.link(record.key, () => app.go({ record: record.key })) : record.key, shown(record.values[first.label])],
          controls: world.opener === 'button' ? [ui.button('View', () => app.go({ record: record.key }), `View ${record.key}`)] : [],
        }))),
      ];
    },
  });
})();
