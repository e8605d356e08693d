// Choose an option: the page of the bundled task "click-option" (its generator and oracle: src/envs/web/suite/widgets.ts).
task.define('click-option', 'Choose an option', function (data) {
  const area = document.getElementById('area');
  const radios = data.options.map((name) => task.el('input', { type: 'radio', name: 'choice', value: name }));
  area.replaceChildren(
    task.el('fieldset', {}, task.el('legend', {}, data.question), ...data.options.map((name, i) => task.el('label', {}, radios[i], ` ${name}`))),
    task.el('button', { type: 'button', onclick: () => task.end(radios.some((r) => r.checked && r.value === data.target) ? 1 : 0) }, 'Submit'),
  );
});
