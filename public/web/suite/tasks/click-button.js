// Click a button: the page of the bundled task "click-button" (its generator and oracle: src/envs/web/suite/widgets.ts).
task.define('click-button', 'Click a button', function (data) {
  const area = document.getElementById('area');
  area.replaceChildren(...data.buttons.map((name) => task.el('button', { type: 'button', onclick: () => task.end(name === data.target ? 1 : 0) }, name)));
});
