// Messaging: folders, threads, compose (generator and oracle:
// src/envs/web/generated/families/messaging.ts). Sending ends the episode: what was sent is
// checked against the goal.
(function () {
  const FOLDERS = ['Inbox', 'Sent', 'Archive'];

  function judge(world, goal, sent) {
    const contact = world.contacts.find((c) => c.name === goal.to);
    const toRight = goal.kind === 'reply' || (contact && (sent.to === contact.name || sent.to.toLowerCase() === contact.address));
    if (goal.kind === 'reply') return sent.kind === 'reply' && sent.of === goal.message && sent.text === goal.text;
    if (goal.kind === 'forward') return sent.kind === 'forward' && sent.of === goal.message && toRight;
    return sent.kind === 'new' && toRight && sent.subject === goal.subject && sent.text === goal.text;
  }

  task.define('messaging', {
    init() {
      return { view: { folder: 'Inbox' }, sent: [], moved: {}, draft: null, error: '' };
    },
    render(app) {
      const { h, ui, world, goal, state } = app;
      const folderOf = (m) => state.moved[m.id] || m.folder;
      const v = app.view;
      const compose = (kind, of) => () => {
        const message = world.messages.find((m) => m.id === of);
        state.draft = { kind, of, to: kind === 'reply' ? message.from : '', subject: message ? `${kind === 'reply' ? 'Re' : 'Fwd'}: ${message.subject}` : '', text: '' };
        state.error = '';
        app.go({ compose: kind });
      };
      if (v.compose) {
        const d = state.draft;
        const title = d.kind === 'new' ? 'New message' : `${d.kind === 'reply' ? 'Reply' : 'Forward'}: ${world.messages.find((m) => m.id === d.of).subject}`;
        const to = d.kind === 'reply' ? h('p', {}, `To: ${d.to}`)
          : world.picker === 'choice' ? ui.choice('To', world.contacts.map((c) => c.name), d.to, (value) => { d.to = value; app.refresh(); })
            : ui.text('To', d.to, (value) => { d.to = value; task.persist(); });
        return [
          h('h1', {}, title),
          to,
          d.kind === 'new' ? ui.text('Subject', d.subject, (value) => { d.subject = value; task.persist(); }) : h('p', {}, `Subject: ${d.subject}`),
          ui.text('Message', d.text, (value) => { d.text = value; task.persist(); }, { multiline: true }),
          state.error !== '' ? h('p', { role: 'alert', class: 'error' }, state.error) : null,
          ui.button('Send', () => {
            // A reply goes back to its sender, a contact or not.
            const known = d.kind === 'reply' || world.contacts.some((c) => c.name === d.to || c.address === d.to.toLowerCase());
            state.error = d.to === '' ? 'Add a recipient.' : !known ? `${d.to} is not one of your contacts.` : d.kind === 'new' && d.subject === '' ? 'Add a subject.' : d.kind !== 'forward' && d.text === '' ? 'Write a message.' : '';
            if (state.error !== '') return app.refresh();
            state.sent.push({ ...d });
            app.end(judge(world, goal, d) ? 1 : 0);
            state.draft = null;
            app.go({ folder: 'Sent' });
          }),
          ui.button('Discard', () => { state.draft = null; app.go({ folder: 'Inbox' }); }),
        ];
      }
      if (v.message !== undefined) {
        const message = world.messages.find((m) => m.id === v.message);
        const folder = folderOf(message);
        return [
          ui.breadcrumbs([{ label: folder, pick: () => app.go({ folder }) }], message.subject),
          h('h1', {}, message.subject),
          h('p', {}, `From ${message.from}`),
          h('p', {}, message.body),
          ui.button('Reply', compose('reply', message.id)),
          ui.button('Forward', compose('forward', message.id)),
          folder === 'Inbox' ? ui.button('Move to archive', () => { state.moved[message.id] = 'Archive'; app.go({ folder: 'Inbox' }); }) : null,
        ];
      }
      const folder = v.folder;
      const pick = (name) => app.go({ folder: name });
      const rows = folder === 'Sent'
        ? state.sent.map((s) => h('li', {}, `To ${s.to}: ${s.subject || '(no subject)'}`))
        : world.messages.filter((m) => folderOf(m) === folder).map((m) => h('li', {}, ui.link(`${m.from}: ${m.subject}`, () => app.go({ message: m.id }))));
      return [
        world.folders === 'tabs' ? ui.tabs(FOLDERS, folder, pick) : h('nav', { class: 'bar' }, FOLDERS.map((name) => [name === folder ? h('strong', {}, name) : ui.link(name, () => pick(name)), ' '])),
        h('h1', {}, folder),
        ui.button('Compose', compose('new')),
        rows.length === 0 ? h('p', {}, 'No messages.') : h('ul', {}, rows),
      ];
    },
  });
})();
