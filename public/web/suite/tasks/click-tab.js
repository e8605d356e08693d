// Tabs: the page of the bundled task "click-tab" (its generator and oracle: src/envs/web/suite/widgets.ts).
task.define('click-tab', 'Tabs', function (data) {
  const area = document.getElementById('area');
  const tabs = [];
  const panels = [];
  const show = (k) => tabs.forEach((tab, i) => { tab.setAttribute('aria-selected', String(i === k)); panels[i].hidden = i !== k; });
  data.tabs.forEach((links, i) => {
    tabs.push(task.el('button', { type: 'button', role: 'tab', id: `tab${i}`, 'aria-controls': `panel${i}`, onclick: () => show(i) }, `Tab ${i + 1}`));
    panels.push(task.el('div', { role: 'tabpanel', id: `panel${i}`, 'aria-labelledby': `tab${i}` },
      ...links.map((word) => task.el('p', {}, task.el('a', { href: '#', onclick: (event) => { event.preventDefault(); task.end(word === data.target ? 1 : 0); } }, word)))));
  });
  area.replaceChildren(task.el('div', { role: 'tablist' }, ...tabs), ...panels);
  show(0);
});
