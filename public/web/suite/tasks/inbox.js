// An e-mail inbox (the bundled tasks "inbox-*"; generators and oracles: src/envs/web/suite/apps.ts).
// One view at a time: the list (search, star, delete, open), a message (reply, forward), a compose form.
(function () {
  function inbox(data) {
    const area = document.getElementById('area');
    const mails = data.mails.map((mail) => ({ ...mail, starred: false, deleted: false }));
    let query = '';
    const goal = data.goal;
    const isTarget = (mail) => mail.id === goal.mail;

    function list() {
      const search = task.el('input', { type: 'search', 'aria-label': 'Search mail', value: query });
      const form = task.el('form', { role: 'search', onsubmit: (event) => { event.preventDefault(); query = search.value.trim().toLowerCase(); list(); } }, search);
      const shown = mails.filter((m) => !m.deleted && (query === '' || `${m.from} ${m.subject} ${m.body}`.toLowerCase().includes(query)));
      area.replaceChildren(
        task.el('h1', {}, 'Inbox'),
        form,
        task.el('ul', {}, ...shown.map((mail) => task.el('li', {},
          task.el('a', { href: '#', onclick: (event) => { event.preventDefault(); open(mail); } }, `${mail.from}: ${mail.subject}`),
          task.el('button', { type: 'button', 'aria-label': `Star ${mail.subject}`, 'aria-pressed': String(mail.starred), onclick: () => {
            mail.starred = !mail.starred;
            if (goal.kind === 'star') return task.end(isTarget(mail) && mail.starred ? 1 : 0);
            list();
          } }, mail.starred ? '★' : '☆'),
          task.el('button', { type: 'button', 'aria-label': `Delete ${mail.subject}`, onclick: () => {
            mail.deleted = true;
            if (goal.kind === 'delete') return task.end(isTarget(mail) ? 1 : 0);
            list();
          } }, '🗑')))),
        shown.length === 0 ? task.el('p', {}, 'No messages match.') : '',
      );
    }

    function open(mail) {
      area.replaceChildren(
        task.el('h1', {}, mail.subject),
        task.el('p', {}, `From: ${mail.from}`),
        task.el('p', {}, mail.body),
        task.el('button', { type: 'button', onclick: () => compose(mail, 'reply') }, 'Reply'),
        task.el('button', { type: 'button', onclick: () => compose(mail, 'forward') }, 'Forward'),
        task.el('button', { type: 'button', onclick: list }, 'Back to inbox'),
      );
    }

    function compose(mail, kind) {
      const to = task.el('input', { type: 'email', id: 'to', value: kind === 'reply' ? mail.address : '' });
      const message = task.el('textarea', { id: 'message' });
      area.replaceChildren(
        task.el('h1', {}, kind === 'reply' ? `Reply to ${mail.from}` : `Forward: ${mail.subject}`),
        task.el('label', { for: 'to' }, 'To'), to,
        task.el('label', { for: 'message' }, 'Message'), message,
        task.el('button', { type: 'button', onclick: () => {
          if (goal.kind !== kind) return task.end(0);
          const right = isTarget(mail) && (kind === 'reply' ? message.value.trim() === goal.text : to.value.trim().toLowerCase() === goal.to);
          task.end(right ? 1 : 0);
        } }, 'Send'),
        task.el('button', { type: 'button', onclick: () => open(mail) }, 'Discard'),
      );
    }

    list();
  }
  for (const id of ['inbox-star', 'inbox-delete', 'inbox-reply', 'inbox-forward']) task.define(id, 'Inbox', inbox);
})();
