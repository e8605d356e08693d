// Enter a date: the page of the bundled task "enter-date" (its generator and oracle: src/envs/web/suite/widgets.ts).
task.define('enter-date', 'Enter a date', function (data) {
  const area = document.getElementById('area');
  const field = task.el('input', { type: 'text', id: 'date', placeholder: 'YYYY-MM-DD' });
  const error = task.el('p', { role: 'alert' });
  area.replaceChildren(
    task.el('label', { for: 'date' }, data.label), field,
    task.el('button', { type: 'button', onclick: () => {
      if (!/^\d{4}-\d{2}-\d{2}$/.test(field.value.trim())) { error.textContent = 'Write the date as YYYY-MM-DD.'; return; }
      task.end(field.value.trim() === data.date ? 1 : 0);
    } }, 'Submit'),
    error,
  );
});
