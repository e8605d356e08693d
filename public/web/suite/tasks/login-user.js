// Sign in: the page of the bundled task "login-user" (its generator and oracle: src/envs/web/suite/widgets.ts).
task.define('login-user', 'Sign in', function (data) {
  const area = document.getElementById('area');
  const user = task.el('input', { type: 'text', id: 'user', autocomplete: 'off' });
  const pass = task.el('input', { type: 'password', id: 'pass' });
  const error = task.el('p', { role: 'status' });
  const form = task.el('form', { onsubmit: (event) => {
    event.preventDefault();
    if (user.value === '' || pass.value === '') { error.textContent = 'Enter a username and a password.'; return; }
    task.end(user.value === data.username && pass.value === data.password ? 1 : 0);
  } },
    task.el('label', { for: 'user' }, 'Username'), user,
    task.el('label', { for: 'pass' }, 'Password'), pass,
    task.el('button', { type: 'submit' }, 'Log in'), error);
  area.replaceChildren(form);
});
