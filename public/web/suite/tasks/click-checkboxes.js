// Check boxes: the page of the bundled task "click-checkboxes" (its generator and oracle: src/envs/web/suite/widgets.ts).
task.define('click-checkboxes', 'Check boxes', function (data) {
  const area = document.getElementById('area');
  const boxes = data.options.map((name, i) => task.el('input', { type: 'checkbox', id: `box${i}`, value: name }));
  area.replaceChildren(
    ...data.options.map((name, i) => task.el('label', {}, boxes[i], ` ${name}`)),
    task.el('button', { type: 'button', onclick: () => {
      const chosen = boxes.filter((b) => b.checked).map((b) => b.value).sort();
      task.end(JSON.stringify(chosen) === JSON.stringify([...data.wanted].sort()) ? 1 : 0);
    } }, 'Submit'),
  );
});
