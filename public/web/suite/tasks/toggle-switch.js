// Settings switches: the page of the bundled task "toggle-switch" (its generator and oracle: src/envs/web/suite/widgets.ts).
task.define('toggle-switch', 'Settings', function (data) {
  const area = document.getElementById('area');
  const state = Object.fromEntries(data.settings.map((s) => [s.name, s.on]));
  area.replaceChildren(
    task.el('h1', {}, 'Settings'),
    ...data.settings.map((s) => {
      const button = task.el('button', { type: 'button', role: 'switch', 'aria-checked': String(s.on), onclick: () => {
        state[s.name] = !state[s.name];
        button.setAttribute('aria-checked', String(state[s.name]));
      } }, s.name);
      return task.el('p', {}, button);
    }),
    task.el('button', { type: 'button', onclick: () => {
      const right = data.settings.every((s) => state[s.name] === (s.name === data.target ? data.want : s.on));
      task.end(right ? 1 : 0);
    } }, 'Save'),
  );
});
