// A forum (the bundled tasks "forum-*"; generators and oracles: src/envs/web/suite/apps.ts): find a
// thread, open it, reply or vote.
(function () {
  function forum(data) {
    const area = document.getElementById('area');
    const goal = data.goal;
    const threads = data.threads.map((thread) => ({ ...thread, votes: thread.votes }));

    function list() {
      area.replaceChildren(
        task.el('h1', {}, 'Forum'),
        task.el('ul', {}, ...threads.map((thread) => task.el('li', {},
          task.el('a', { href: '#', onclick: (event) => { event.preventDefault(); open(thread); } }, thread.title),
          ` · ${thread.author} · ${thread.votes} votes`))),
      );
    }

    function open(thread) {
      const reply = task.el('textarea', { id: 'reply' });
      area.replaceChildren(
        task.el('h1', {}, thread.title),
        task.el('p', {}, `${thread.author} wrote: ${thread.body}`),
        task.el('p', {}, `${thread.votes} votes`),
        task.el('button', { type: 'button', 'aria-label': 'Upvote this thread', onclick: () => {
          thread.votes++;
          if (goal.kind === 'vote') return task.end(thread.title === goal.thread ? 1 : 0);
          open(thread);
        } }, '▲ Upvote'),
        task.el('label', { for: 'reply' }, 'Your reply'), reply,
        task.el('button', { type: 'button', onclick: () => {
          if (reply.value.trim() === '') return;
          task.end(goal.kind === 'reply' && thread.title === goal.thread && reply.value.trim() === goal.text ? 1 : 0);
        } }, 'Post reply'),
        task.el('button', { type: 'button', onclick: list }, 'All threads'),
      );
    }

    list();
  }
  for (const id of ['forum-reply', 'forum-vote']) task.define(id, 'Forum', forum);
})();
