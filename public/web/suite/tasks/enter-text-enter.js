// Enter text and press Enter: the page of the bundled task "enter-text-enter" (its generator and oracle: src/envs/web/suite/widgets.ts).
task.define('enter-text-enter', 'Enter text and press Enter', function (data) {
  const area = document.getElementById('area');
  const field = task.el('input', { type: 'search', id: 'field', 'aria-label': data.label });
  const form = task.el('form', { onsubmit: (event) => { event.preventDefault(); task.end(field.value.trim() === data.text ? 1 : 0); } }, field);
  area.replaceChildren(form, task.el('p', {}, 'Press Enter to send.'));
});
