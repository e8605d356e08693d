// Settings and preferences (generator and oracle: src/envs/web/generated/families/settings.ts).
// With a Save button, saving checks that the settings are exactly the goal's; saved as each
// changes, the change that makes them so wins.
(function () {
  const shown = (value) => (value === true ? 'on' : value === false ? 'off' : value);

  function exact(world, goal, values) {
    return world.groups.every((g) => g.settings.every((s) => values[s.label] === (goal.values[s.label] === undefined ? s.value : goal.values[s.label])));
  }

  task.define('settings', {
    init(data) {
      const values = {};
      for (const group of data.world.groups) for (const setting of group.settings) values[setting.label] = setting.value;
      return { view: { settings: true }, values, tab: data.world.groups[0].title };
    },
    render(app) {
      const { h, ui, world, goal, state } = app;
      const auto = world.save === 'auto';
      const set = (label, redraw) => (value) => {
        state.values[label] = value;
        if (auto && exact(world, goal, state.values)) app.end(1);
        if (redraw) app.refresh();
        else task.persist();
      };
      const control = (s) => {
        const value = state.values[s.label];
        if (s.kind === 'switch') return ui.switch(s.label, value, set(s.label, true));
        if (s.kind === 'choice') return ui.choice(s.label, s.options, value, set(s.label, true));
        if (s.kind === 'radio') return ui.radios(s.label, s.options, value, set(s.label, true));
        return ui.text(s.label, value, set(s.label, false));
      };
      const group = (g) => [h('h2', {}, g.title), g.settings.map(control)];
      const changes = world.groups.flatMap((g) => g.settings).filter((s) => state.values[s.label] !== s.value);
      let body;
      if (world.layout === 'tabs') {
        const current = world.groups.find((g) => g.title === state.tab);
        body = [ui.tabs(world.groups.map((g) => g.title), state.tab, (title) => { state.tab = title; app.refresh(); }), h('div', { class: 'panel', role: ui.style === 'aria' ? 'tabpanel' : null }, group(current))];
      } else if (world.layout === 'sections') {
        body = world.groups.map((g) => ui.section(g.title, g.settings.map(control)));
      } else {
        body = world.groups.map(group);
      }
      return [
        h('h1', {}, 'Settings'),
        body,
        changes.length > 0 ? h('div', { class: 'changes' }, h('p', {}, auto ? 'Saved:' : 'Unsaved changes:'), h('ul', {}, changes.map((s) => h('li', {}, `${s.label}: ${shown(state.values[s.label])}`)))) : null,
        auto ? h('p', {}, 'Changes are saved as you make them.') : ui.button('Save changes', () => {
          state.saved = true;
          app.end(exact(world, goal, state.values) ? 1 : 0);
          app.refresh();
        }),
      ];
    },
  });
})();
