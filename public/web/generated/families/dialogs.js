// Dialogs, toasts and confirmations (generator and oracle:
// src/envs/web/generated/families/dialogs.ts). Every change is judged at once: one the goal does
// not ask for loses, the one that completes the goal wins.
(function () {
  function judge(world, goal, state) {
    const live = state.items.filter((i) => !i.deleted && !i.archived);
    const deleted = state.items.filter((i) => i.deleted).map((i) => i.key);
    const archived = state.items.filter((i) => i.archived).map((i) => i.key);
    const renamed = state.items.filter((i) => i.name !== i.key);
    const allowed = (list, keys) => list.every((k) => keys.includes(k));
    switch (goal.kind) {
      case 'dismiss':
        return state.closedWith === null ? 'partial' : state.closedWith === world.announcement.ok && deleted.length + archived.length + renamed.length === 0 ? 'done' : 'wrong';
      case 'restore': {
        // The record deleted before the start stays deleted until Undo; its notice gone, it cannot come back.
        const restored = live.some((i) => i.key === goal.key);
        if (deleted.some((k) => k !== goal.key) || archived.length + renamed.length > 0 || (!restored && state.toast === null)) return 'wrong';
        return restored ? 'done' : 'partial';
      }
      case 'delete':
        if (!allowed(deleted, goal.keys) || archived.length + renamed.length > 0) return 'wrong';
        return deleted.length === goal.keys.length ? 'done' : 'partial';
      case 'rename':
        if (deleted.length + archived.length > 0 || renamed.some((i) => i.key !== goal.key || i.name !== goal.to)) return 'wrong';
        return renamed.length === 1 ? 'done' : 'partial';
      case 'archive':
        if (!allowed(archived, [goal.key]) || deleted.length + renamed.length > 0) return 'wrong';
        return archived.length === 1 && state.toast === null && state.dismissedArchive ? 'done' : 'partial';
    }
    return 'partial';
  }

  task.define('dialogs', {
    init(data) {
      const { world } = data;
      const items = world.items.map((key) => ({ key, name: key, deleted: false, archived: false }));
      if (world.removed !== null) items.push({ key: world.removed, name: world.removed, deleted: true, archived: false, restorable: true });
      return {
        view: { list: true },
        items,
        dialog: world.announcement ? { kind: 'announcement' } : null,
        toast: world.removed !== null ? { text: `${world.removed} was deleted.`, undo: world.removed } : null,
        closedWith: null,
        dismissedArchive: false,
        draft: '',
        error: '',
      };
    },
    render(app) {
      const { h, ui, world, goal, state } = app;
      const after = () => {
        const verdict = judge(world, goal, state);
        if (verdict === 'wrong') app.end(0);
        if (verdict === 'done') app.end(1);
        app.refresh();
      };
      const item = (key) => state.items.find((i) => i.key === key);
      const close = () => { state.dialog = null; state.error = ''; };
      const ask = (kind, key) => () => { state.dialog = { kind, key }; state.draft = item(key).name; app.refresh(); };
      let dialog = null;
      const d = state.dialog;
      if (d && d.kind === 'announcement') {
        const a = world.announcement;
        const pick = (label) => () => { state.closedWith = label; close(); after(); };
        dialog = ui.dialog(a.title, a.body, [ui.button(a.ok, pick(a.ok)), ui.button(a.later, pick(a.later))]);
      } else if (d && d.kind === 'delete') {
        const name = item(d.key).name;
        dialog = ui.dialog(`Delete ${name}?`, 'This cannot be undone after the notice closes.', [
          ui.button('Cancel', () => { close(); app.refresh(); }),
          ui.button('Delete', () => { item(d.key).deleted = true; state.toast = { text: `${name} was deleted.`, undo: d.key }; close(); after(); }),
        ]);
      } else if (d && d.kind === 'archive') {
        const name = item(d.key).name;
        dialog = ui.dialog(`Archive ${name}?`, 'Archived records leave this list.', [
          ui.button('Cancel', () => { close(); app.refresh(); }),
          ui.button('Archive', () => { item(d.key).archived = true; state.toast = { text: `${name} was archived.`, undo: d.key, archive: true }; close(); after(); }),
        ]);
      } else if (d && d.kind === 'rename') {
        const current = item(d.key);
        dialog = ui.dialog(`Rename ${current.name}`, 'Choose a new name.', [
          ui.text('New name', state.draft, (value) => { state.draft = value; task.persist(); }),
          state.error !== '' ? h('p', { role: 'alert', class: 'error' }, state.error) : null,
          ui.button('Cancel', () => { close(); app.refresh(); }),
          ui.button('Rename', () => {
            const name = state.draft.trim();
            if (name === '') { state.error = 'A name is required.'; return app.refresh(); }
            if (state.items.some((i) => i !== current && i.name === name)) { state.error = `${name} is taken.`; return app.refresh(); }
            current.name = name;
            state.toast = { text: `Renamed to ${name}.` };
            close();
            after();
          }),
        ]);
      }
      const toast = state.toast;
      const live = state.items.filter((i) => !i.deleted && !i.archived);
      const plural = `${world.noun.charAt(0).toUpperCase()}${world.noun.slice(1)}s`;
      return [
        h('h1', {}, plural),
        ui.table([plural.slice(0, -1), ''], live.map((i) => ({
          cells: [i.name],
          controls: [ui.button('Rename', ask('rename', i.key), `Rename ${i.name}`), ui.button('Archive', ask('archive', i.key), `Archive ${i.name}`), ui.button('Delete', ask('delete', i.key), `Delete ${i.name}`)],
        }))),
        toast ? ui.toast(toast.text, [
          toast.undo ? ui.button('Undo', () => { const t = item(toast.undo); t.deleted = false; t.archived = false; state.toast = null; after(); }) : null,
          ui.button('Dismiss', () => { if (toast.archive) state.dismissedArchive = true; state.toast = null; after(); }),
        ]) : null,
        dialog,
      ];
    },
  });
})();
