// Click buttons in order: the page of the bundled task "click-button-sequence" (its generator and oracle: src/envs/web/suite/widgets.ts).
task.define('click-button-sequence', 'Click buttons in order', function (data) {
  const area = document.getElementById('area');
  let next = 0;
  area.replaceChildren(...data.buttons.map((name) => task.el('button', { type: 'button', onclick: () => {
    if (name !== data.order[next]) return task.end(0);
    next++;
    if (next === data.order.length) task.end(1);
  } }, name)));
});
