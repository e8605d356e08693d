// Sections: the page of the bundled task "click-collapsible" (its generator and oracle: src/envs/web/suite/widgets.ts).
task.define('click-collapsible', 'Sections', function (data) {
  const area = document.getElementById('area');
  area.replaceChildren(...data.sections.map((section) => task.el('details', {},
    task.el('summary', {}, section.title),
    ...section.buttons.map((name) => task.el('button', { type: 'button', onclick: () => task.end(name === data.target ? 1 : 0) }, name)))));
});
