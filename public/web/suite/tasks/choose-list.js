// Choose from a list: the page of the bundled task "choose-list" (its generator and oracle: src/envs/web/suite/widgets.ts).
task.define('choose-list', 'Choose from a list', function (data) {
  const area = document.getElementById('area');
  const select = task.el('select', { id: 'list' }, ...data.options.map((name) => task.el('option', { value: name }, name)));
  area.replaceChildren(
    task.el('label', { for: 'list' }, data.label), select,
    task.el('button', { type: 'button', onclick: () => task.end(select.value === data.target ? 1 : 0) }, 'Submit'),
  );
});
