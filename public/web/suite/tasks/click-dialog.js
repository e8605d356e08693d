// A dialog: the page of the bundled task "click-dialog" (its generator and oracle: src/envs/web/suite/widgets.ts).
task.define('click-dialog', 'A dialog', function (data) {
  const area = document.getElementById('area');
  const dialog = task.el('div', { role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'dialog-title' },
    task.el('h2', { id: 'dialog-title' }, data.title),
    task.el('p', {}, data.body),
    ...data.buttons.map((button) => task.el('button', { type: 'button', 'aria-label': button.label, onclick: () => { dialog.hidden = true; task.end(button.label === data.target ? 1 : 0); } }, button.text)));
  area.replaceChildren(task.el('p', {}, 'Some page content behind the dialog.'), dialog);
});
