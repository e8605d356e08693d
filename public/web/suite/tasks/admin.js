// An admin table of user accounts (the bundled tasks "admin-*"; generators and oracles:
// src/envs/web/suite/apps.ts): filter the table, edit a record, save.
(function () {
  function admin(data) {
    const area = document.getElementById('area');
    const users = data.users.map((user) => ({ ...user }));
    const goal = data.goal;
    let filter = '';

    function table() {
      const box = task.el('input', { type: 'search', 'aria-label': 'Filter users', value: filter });
      box.addEventListener('input', () => { filter = box.value.trim().toLowerCase(); rows(); });
      const body = task.el('tbody', {});
      function rows() {
        const shown = users.filter((u) => filter === '' || `${u.name} ${u.email} ${u.role}`.toLowerCase().includes(filter));
        body.replaceChildren(...shown.map((user) => task.el('tr', {},
          task.el('td', {}, user.name), task.el('td', {}, user.email), task.el('td', {}, user.role), task.el('td', {}, user.active ? 'active' : 'inactive'),
          task.el('td', {}, task.el('button', { type: 'button', 'aria-label': `Edit ${user.name}`, onclick: () => edit(user) }, 'Edit')))));
      }
      rows();
      area.replaceChildren(
        task.el('h1', {}, 'Users'), box,
        task.el('table', {}, task.el('thead', {}, task.el('tr', {}, ...['Name', 'E-mail', 'Role', 'Status', ''].map((h) => task.el('th', {}, h)))), body),
      );
    }

    function edit(user) {
      const role = task.el('select', { id: 'role' }, ...data.roles.map((r) => task.el('option', { value: r, selected: r === user.role }, r)));
      const active = task.el('input', { type: 'checkbox', id: 'active', checked: user.active });
      const email = task.el('input', { type: 'email', id: 'email', value: user.email });
      area.replaceChildren(
        task.el('h1', {}, `Edit ${user.name}`),
        task.el('label', { for: 'email' }, 'E-mail'), email,
        task.el('label', { for: 'role' }, 'Role'), role,
        task.el('label', {}, active, ' Active'),
        task.el('button', { type: 'button', onclick: () => {
          user.email = email.value.trim(); user.role = role.value; user.active = active.checked;
          if (user.name !== goal.user) return task.end(0);
          const right = goal.kind === 'role' ? user.role === goal.role && user.active === goal.was.active && user.email === goal.was.email
            : user.active === false && user.role === goal.was.role && user.email === goal.was.email;
          task.end(right ? 1 : 0);
        } }, 'Save'),
        task.el('button', { type: 'button', onclick: table }, 'Cancel'),
      );
    }

    table();
  }
  for (const id of ['admin-role', 'admin-deactivate']) task.define(id, 'Users', admin);
})();
