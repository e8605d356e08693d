// Click a link: the page of the bundled task "click-link" (its generator and oracle: src/envs/web/suite/widgets.ts).
task.define('click-link', 'Click a link', function (data) {
  const area = document.getElementById('area');
  const words = data.words.map((word, i) => data.links.includes(i)
    ? task.el('a', { href: '#', onclick: (event) => { event.preventDefault(); task.end(word === data.target ? 1 : 0); } }, word)
    : word);
  const paragraph = task.el('p', {});
  words.forEach((w, i) => { if (i > 0) paragraph.append(' '); paragraph.append(w instanceof Node ? w : document.createTextNode(w)); });
  area.replaceChildren(paragraph);
});
