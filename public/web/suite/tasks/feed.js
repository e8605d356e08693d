// A social feed (the bundled tasks "feed-*"; generators and oracles: src/envs/web/suite/apps.ts):
// like, share or follow, by author.
(function () {
  function feed(data) {
    const area = document.getElementById('area');
    const goal = data.goal;
    const followed = new Set();
    const act = (kind, post) => task.end(kind === goal.kind && post.author === goal.author ? 1 : 0);
    area.replaceChildren(
      task.el('h1', {}, 'Feed'),
      ...data.posts.map((post) => task.el('article', {},
        task.el('h2', {}, post.author),
        task.el('p', {}, post.text),
        task.el('button', { type: 'button', 'aria-label': `Like ${post.author}'s post`, onclick: () => act('like', post) }, '♥ Like'),
        task.el('button', { type: 'button', 'aria-label': `Share ${post.author}'s post`, onclick: () => act('share', post) }, '↻ Share'),
        task.el('button', { type: 'button', 'aria-label': `Follow ${post.author}`, 'aria-pressed': String(followed.has(post.author)), onclick: () => act('follow', post) }, '+ Follow'))),
    );
  }
  for (const id of ['feed-like', 'feed-share', 'feed-follow']) task.define(id, 'Feed', feed);
})();
