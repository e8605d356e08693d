// A sign-up form with validation: the page of the bundled task "signup-form" (its generator and
// oracle: src/envs/web/suite/widgets.ts). Mistakes are shown, not punished; the account is made once all is right.
task.define('signup-form', 'Create an account', function (data) {
  const area = document.getElementById('area');
  const input = (id, type) => task.el('input', { type, id, autocomplete: 'off' });
  const name = input('name', 'text');
  const email = input('email', 'email');
  const password = input('password', 'password');
  const confirm = input('confirm', 'password');
  const terms = task.el('input', { type: 'checkbox', id: 'terms' });
  const error = task.el('p', { role: 'alert' });
  area.replaceChildren(
    task.el('h1', {}, 'Create an account'),
    task.el('label', { for: 'name' }, 'Full name'), name,
    task.el('label', { for: 'email' }, 'E-mail'), email,
    task.el('label', { for: 'password' }, 'Password'), password,
    task.el('label', { for: 'confirm' }, 'Confirm password'), confirm,
    task.el('label', {}, terms, ' I accept the terms'),
    task.el('button', { type: 'button', onclick: () => {
      if (name.value.trim() === '' || email.value.trim() === '') { error.textContent = 'Fill in your name and e-mail.'; return; }
      if (password.value.length < 6) { error.textContent = 'The password needs at least 6 characters.'; return; }
      if (password.value !== confirm.value) { error.textContent = 'The passwords differ.'; return; }
      if (!terms.checked) { error.textContent = 'Accept the terms to go on.'; return; }
      task.end(name.value.trim() === data.name && email.value.trim() === data.email && password.value === data.password ? 1 : 0);
    } }, 'Create account'),
    error,
  );
});
