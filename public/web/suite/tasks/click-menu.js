// Click a menu item: the page of the bundled task "click-menu" (its generator and oracle: src/envs/web/suite/widgets.ts).
task.define('click-menu', 'Menus', function (data) {
  const area = document.getElementById('area');
  const bar = task.el('div', { role: 'menubar' });
  data.menus.forEach((menu, m) => {
    const list = task.el('div', { role: 'menu', id: `menu${m}`, hidden: true },
      ...menu.items.map((item) => task.el('div', { role: 'menuitem', tabindex: '-1', onclick: () => task.end(menu.name === data.menu && item === data.item ? 1 : 0) }, item)));
    const button = task.el('button', { type: 'button', 'aria-haspopup': 'menu', 'aria-expanded': 'false', 'aria-controls': `menu${m}`, onclick: () => {
      const open = list.hidden;
      bar.querySelectorAll('[role=menu]').forEach((other) => { other.hidden = true; });
      bar.querySelectorAll('[aria-haspopup]').forEach((other) => other.setAttribute('aria-expanded', 'false'));
      list.hidden = !open;
      button.setAttribute('aria-expanded', String(open));
    } }, menu.name);
    bar.append(task.el('span', {}, button, list));
  });
  area.replaceChildren(bar);
});
