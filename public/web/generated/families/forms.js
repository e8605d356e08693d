// Forms and multi-step wizards with validation (generator and oracle:
// src/envs/web/generated/families/forms.ts). Next checks the step's required fields and formats;
// the last step's submit checks the whole form against the goal and ends the episode.
(function () {
  const EMAIL = /^[^\s@]+@[^\s@]+\.[a-z]+$/i;
  const DATE = /^\d{4}-\d{2}-\d{2}$/;

  function problem(field, value) {
    const empty = value === '' || value === false || value === undefined;
    if (empty) return field.required ? `${field.label} is required.` : null;
    if (field.kind === 'email' && !EMAIL.test(value)) return `${field.label} must be an e-mail address.`;
    if (field.kind === 'date' && !DATE.test(value)) return `${field.label} must be a date (YYYY-MM-DD).`;
    if (field.kind === 'number' && (!/^\d+$/.test(value) || Number(value) < field.min || Number(value) > field.max)) return `${field.label} must be a number from ${field.min} to ${field.max}.`;
    return null;
  }

  task.define('forms', {
    init(data) {
      const values = {};
      for (const step of data.world.steps) for (const field of step.fields) values[field.label] = field.kind === 'flag' ? false : '';
      return { view: { step: 0 }, values, error: '' };
    },
    render(app) {
      const { h, ui, world, state } = app;
      const index = app.view.step;
      const step = world.steps[index];
      const last = index === world.steps.length - 1;
      const set = (label, redraw) => (value) => {
        state.values[label] = value;
        state.error = '';
        if (redraw) app.refresh();
        else task.persist();
      };
      const fields = step.fields.map((field) => {
        const value = state.values[field.label];
        if (field.kind === 'choice') return ui.choice(field.label, field.options, value, set(field.label, true));
        if (field.kind === 'radio') return ui.radios(field.label, field.options, value, set(field.label, true));
        if (field.kind === 'flag') return ui.checkbox(field.label, value, set(field.label, true));
        const type = ui.style === 'native' ? { email: 'email', number: 'number', date: 'date' }[field.kind] : undefined;
        return ui.text(field.required ? `${field.label}` : field.label, value, set(field.label, false), { type });
      });
      const check = (fieldsToCheck) => fieldsToCheck.map((field) => problem(field, state.values[field.label])).find((p) => p !== null) || '';
      const next = () => {
        state.error = check(step.fields);
        if (state.error !== '') return app.refresh();
        app.go({ step: index + 1 });
      };
      const submit = () => {
        state.error = check(world.steps.flatMap((s) => s.fields));
        if (state.error !== '') return app.refresh();
        const right = world.steps.every((s) => s.fields.every((field) => {
          const want = app.goal.values[field.label];
          const have = state.values[field.label];
          return want === undefined ? have === '' || have === false : have === want;
        }));
        state.submitted = true;
        app.refresh();
        app.end(right ? 1 : 0);
      };
      return [
        h('h1', {}, world.title),
        world.steps.length > 1 ? h('h2', {}, `Step ${index + 1} of ${world.steps.length}: ${step.title}`) : null,
        state.submitted ? h('p', { role: 'status' }, 'Thank you: your form was sent.') : null,
        h('form', { onsubmit: (event) => event.preventDefault(), novalidate: true }, fields),
        state.error !== '' ? h('p', { role: 'alert', class: 'error' }, state.error) : null,
        index > 0 ? ui.button('Back', () => app.go({ step: index - 1 })) : null,
        last ? ui.button(world.submit, submit) : ui.button('Next', next),
      ];
    },
  });
})();
