// Enter text: the page of the bundled task "enter-text" (its generator and oracle: src/envs/web/suite/widgets.ts).
task.define('enter-text', 'Enter text', function (data) {
  const area = document.getElementById('area');
  const field = task.el('input', { type: 'text', id: 'field' });
  area.replaceChildren(
    task.el('label', { for: 'field' }, data.label),
    field,
    task.el('button', { type: 'button', onclick: () => task.end(field.value.trim() === data.text ? 1 : 0) }, 'Submit'),
  );
});
