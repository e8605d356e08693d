// The generated apps' widgets, each written three ways (TASK.data.style): `native` HTML controls,
// `aria` widgets of plain elements with ARIA roles and states, and `divs`: `div`s and `span`s
// with click listeners and a pointer cursor, their state only in their text. How each shows in
// the driver's element lines is what the oracles read (src/envs/web/generated/oracle-tools.ts):
// a `divs` checkbox is "☑ Label" or "☐ Label", a switch "Label: On", a radio "◉ Option", a
// dropdown "Label: Value ▾", a section "▸ Title"; an ARIA dropdown is a combobox "Label: Value".
(function () {
  const h = task.h;
  let serial = 0;
  const uid = (prefix) => `${prefix}-${++serial}`;

  /** An element of an ARIA widget: clicked, or Enter / Space on it, as a keyboard user would. */
  function activatable(element, onActivate) {
    element.addEventListener('click', onActivate);
    element.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' || event.key === ' ') {
        event.preventDefault();
        onActivate(event);
      }
    });
    return element;
  }

  function widgets(style) {
    const native = style === 'native';
    const aria = style === 'aria';

    const ui = {
      style,
      /** `name` is the accessible name where it says more than the text (a row's "Delete Ada Berg"). */
      button(label, onClick, name) {
        if (native) return h('button', { type: 'button', 'aria-label': name, onclick: onClick }, label);
        if (aria) return activatable(h('div', { role: 'button', tabindex: '0', class: 'control', 'aria-label': name }, label), onClick);
        return h('span', { class: 'btn', onclick: onClick }, label);
      },

      link(label, onClick, name) {
        const follow = (event) => {
          event.preventDefault();
          onClick();
        };
        if (native) return h('a', { href: '#', 'aria-label': name, onclick: follow }, label);
        if (aria) return activatable(h('span', { role: 'link', tabindex: '0', class: 'lnk', 'aria-label': name }, label), follow);
        return h('span', { class: 'lnk', onclick: follow }, label);
      },

      /** A text field; `onInput` gets each new value (the app keeps it in its state, not redrawn). */
      text(label, value, onInput, options = {}) {
        const multiline = options.multiline === true;
        if (aria) {
          const labelId = uid('label');
          const box = h('div', { role: 'textbox', contenteditable: 'true', class: 'editable', 'aria-labelledby': labelId, 'aria-multiline': multiline ? 'true' : null }, value);
          box.addEventListener('input', () => onInput(box.textContent.trim()));
          return h('div', { class: 'field' }, h('span', { id: labelId }, label), box);
        }
        const tag = multiline ? 'textarea' : 'input';
        const field = h(tag, { type: multiline ? null : options.type || 'text', value, autocomplete: 'off' });
        field.addEventListener('input', () => onInput(field.value.trim()));
        if (native) {
          field.id = uid('field');
          return h('div', { class: 'field' }, h('label', { for: field.id }, label), field);
        }
        // A field as many hand-made pages write it: a caption beside it, named only by its title.
        field.title = label;
        field.placeholder = label;
        return h('div', { class: 'field' }, h('span', { class: 'caption' }, label), field);
      },

      /** One of `options`; '' is none yet. */
      choice(label, options, value, onChange) {
        if (native) {
          const id = uid('choice');
          const select = h('select', { id, onchange: () => onChange(select.value) },
            value === '' ? h('option', { value: '', disabled: true, selected: true }, 'Choose…') : null,
            options.map((option) => h('option', { value: option, selected: option === value }, option)));
          return h('div', { class: 'field' }, h('label', { for: id }, label), select);
        }
        const key = `choice:${label}`;
        const open = task.isOpen(key);
        const shown = `${label}: ${value === '' ? 'none' : value}`;
        const pick = (option) => () => {
          task.open = task.open.filter((k) => k !== key);
          onChange(option);
        };
        if (aria) {
          const box = activatable(h('div', { role: 'combobox', tabindex: '0', class: 'control', 'aria-haspopup': 'listbox', 'aria-expanded': String(open), 'aria-label': shown }, shown), () => task.toggle(key));
          const list = open ? h('div', { role: 'listbox', 'aria-label': label, class: 'popup' }, options.map((option) => activatable(h('div', { role: 'option', tabindex: '-1', 'aria-selected': String(option === value) }, option), pick(option)))) : null;
          return h('div', { class: 'field' }, box, list);
        }
        const trigger = h('div', { class: 'btn dropdown', onclick: () => task.toggle(key) }, `${shown} ▾`);
        const list = open ? h('div', { class: 'popup' }, options.map((option) => h('div', { class: 'btn item', onclick: pick(option) }, option))) : null;
        return h('div', { class: 'field' }, trigger, list);
      },

      checkbox(label, checked, onChange) {
        if (native) return h('label', { class: 'check' }, h('input', { type: 'checkbox', checked, onchange: (event) => onChange(event.target.checked) }), ` ${label}`);
        if (aria) return activatable(h('div', { role: 'checkbox', tabindex: '0', class: 'control', 'aria-checked': String(checked) }, label), () => onChange(!checked));
        return h('span', { class: 'btn', onclick: () => onChange(!checked) }, `${checked ? '☑' : '☐'} ${label}`);
      },

      switch(label, on, onChange) {
        if (native) return ui.checkbox(label, on, onChange);
        if (aria) return activatable(h('div', { role: 'switch', tabindex: '0', class: 'control', 'aria-checked': String(on) }, label), () => onChange(!on));
        return h('span', { class: 'btn', onclick: () => onChange(!on) }, `${label}: ${on ? 'On' : 'Off'}`);
      },

      radios(label, options, value, onChange) {
        if (native) {
          const name = uid('radios');
          return h('fieldset', {}, h('legend', {}, label), options.map((option) => h('label', { class: 'check' }, h('input', { type: 'radio', name, checked: option === value, onchange: () => onChange(option) }), ` ${option}`)));
        }
        if (aria) return h('div', { role: 'radiogroup', 'aria-label': label, class: 'group' }, h('span', {}, label), options.map((option) => activatable(h('div', { role: 'radio', tabindex: '0', class: 'control', 'aria-checked': String(option === value) }, option), () => onChange(option))));
        return h('div', { class: 'group' }, h('span', { class: 'caption' }, label), options.map((option) => h('span', { class: 'btn', onclick: () => onChange(option) }, `${option === value ? '◉' : '○'} ${option}`)));
      },

      tabs(names, current, onPick) {
        if (native) return h('nav', { class: 'tabs' }, names.map((name) => h('button', { type: 'button', 'aria-pressed': String(name === current), onclick: () => onPick(name) }, name)));
        if (aria) return h('div', { role: 'tablist', class: 'tabs' }, names.map((name) => activatable(h('div', { role: 'tab', tabindex: '0', class: 'control', 'aria-selected': String(name === current) }, name), () => onPick(name))));
        return h('div', { class: 'tabs' }, names.map((name) => h('span', { class: name === current ? 'btn current' : 'btn', onclick: () => onPick(name) }, name)));
      },

      /** A section that opens and closes (an accordion's part), closed until opened; `content` shows while it is open. */
      section(title, content) {
        const key = `section:${title}`;
        const open = task.isOpen(key);
        if (native) {
          // The browser opens a details element itself: its state is noted, the page not drawn again.
          const details = h('details', { open }, h('summary', {}, title), content);
          details.addEventListener('toggle', () => {
            if (details.open !== task.isOpen(key)) task.open = details.open ? [...task.open, key] : task.open.filter((k) => k !== key);
          });
          return details;
        }
        if (aria) return h('div', { class: 'section' }, activatable(h('div', { role: 'button', tabindex: '0', class: 'control', 'aria-expanded': String(open) }, title), () => task.toggle(key)), open ? h('div', { role: 'region', 'aria-label': title }, content) : null);
        return h('div', { class: 'section' }, h('div', { class: 'btn bar', onclick: () => task.toggle(key) }, `${open ? '▾' : '▸'} ${title}`), open ? h('div', {}, content) : null);
      },

      /** A menu button and its items ({ label, pick }). */
      menu(label, items) {
        const key = `menu:${label}`;
        const open = task.isOpen(key);
        const choose = (item) => (event) => {
          if (event && event.preventDefault) event.preventDefault();
          task.open = [];
          item.pick();
        };
        if (native) return h('div', { class: 'menu' }, h('button', { type: 'button', 'aria-expanded': String(open), onclick: () => task.toggle(key) }, label),
          open ? h('ul', { class: 'popup' }, items.map((item) => h('li', {}, h('a', { href: '#', onclick: choose(item) }, item.label)))) : null);
        if (aria) return h('div', { class: 'menu' }, activatable(h('div', { role: 'button', tabindex: '0', class: 'control', 'aria-haspopup': 'menu', 'aria-expanded': String(open) }, label), () => task.toggle(key)),
          open ? h('div', { role: 'menu', 'aria-label': label, class: 'popup' }, items.map((item) => activatable(h('div', { role: 'menuitem', tabindex: '-1' }, item.label), choose(item)))) : null);
        return h('div', { class: 'menu' }, h('span', { class: 'btn', onclick: () => task.toggle(key) }, label),
          open ? h('div', { class: 'popup' }, items.map((item) => h('div', { class: 'btn item', onclick: choose(item) }, item.label))) : null);
      },

      /** Where the page is: `trail` ({ label, pick }) up to it, then the page itself. */
      breadcrumbs(trail, current) {
        if (native) return h('nav', { 'aria-label': 'Breadcrumb', class: 'crumbs' }, h('ol', {}, trail.map((step) => h('li', {}, ui.link(step.label, step.pick))), h('li', { 'aria-current': 'page' }, current)));
        if (aria) return h('div', { role: 'navigation', 'aria-label': 'Breadcrumb', class: 'crumbs' }, trail.map((step) => [ui.link(step.label, step.pick), ' › ']), h('span', { 'aria-current': 'page' }, current));
        return h('div', { class: 'crumbs' }, trail.map((step) => [ui.link(step.label, step.pick), ' / ']), current);
      },

      /** A modal dialog: nothing behind it can be acted on while it is open (lib/runtime.js). */
      dialog(title, body, buttons) {
        const titleId = uid('dialog');
        const content = [h('h2', { id: titleId }, title), h('p', {}, body), h('div', { class: 'actions' }, buttons)];
        if (native) return h('dialog', { open: true, class: 'modal', 'aria-labelledby': titleId }, content);
        if (aria) return h('div', { role: 'dialog', 'aria-modal': 'true', class: 'modal', 'aria-labelledby': titleId }, content);
        return h('div', { class: 'modal' }, content);
      },

      /** A notice after an action, with its buttons beside the message (a status region reads only its text). */
      toast(text, buttons) {
        const message = native ? h('output', {}, text) : aria ? h('p', { role: 'status' }, text) : h('p', {}, text);
        return h('div', { class: 'toast' }, message, buttons);
      },

      /** Pages of a long list: Previous, the page numbers, Next. */
      pager(page, pages, onPick) {
        const number = (n) => (style === 'divs' ? ui.button(String(n), () => onPick(n)) : ui.button(String(n), () => onPick(n), `Page ${n}`));
        return h('div', { class: 'pager' },
          page > 1 ? ui.button('Previous', () => onPick(page - 1)) : null,
          Array.from({ length: pages }, (_, i) => (i + 1 === page ? h('span', { class: 'current' }, String(i + 1)) : number(i + 1))),
          page < pages ? ui.button('Next', () => onPick(page + 1)) : null,
          h('p', {}, `Page ${page} of ${pages}`));
      },

      /** Rows of a list: a table in native style, `div` rows otherwise; each row's cells, then its controls. */
      table(columns, rows) {
        if (native) {
          return h('table', {}, h('thead', {}, h('tr', {}, columns.map((column) => h('th', {}, column)))),
            h('tbody', {}, rows.map((row) => h('tr', {}, row.cells.map((cell) => h('td', {}, cell)), h('td', {}, row.controls)))));
        }
        const cell = (content) => h('span', { role: aria ? 'cell' : null, class: 'cell' }, content);
        return h('div', { role: aria ? 'table' : null, class: 'rows' },
          h('div', { role: aria ? 'row' : null, class: 'row head' }, columns.map((column) => h('span', { role: aria ? 'columnheader' : null, class: 'cell' }, column))),
          rows.map((row) => h('div', { role: aria ? 'row' : null, class: 'row' }, row.cells.map(cell), row.controls)));
      },
    };
    return ui;
  }

  task.widgets = widgets;
})();
