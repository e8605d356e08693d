// A few custom elements, written as a small design system would write them.

const base = `:host { font-family: "Inter", system-ui, sans-serif; }`;

/** <todo-app>: a to-do list in an open shadow root; each entry is a <todo-item> with its own. */
class TodoApp extends HTMLElement {
  constructor() {
    super();
    this.attachShadow({ mode: 'open' }).innerHTML = `
      <style>${base} form { display: flex; gap: 6px; } ul { list-style: none; padding: 0; } input { flex: 1; padding: 6px; }</style>
      <form part="form"><input name="title" placeholder="What needs to be done?" aria-label="New to-do" autocomplete="off"><button>Add</button></form>
      <ul></ul>
      <footer part="footer"></footer>`;
    this.shadowRoot.querySelector('form').addEventListener('submit', (e) => {
      e.preventDefault();
      const input = this.shadowRoot.querySelector('input');
      const title = input.value.trim();
      if (!title) return;
      this.add(title);
      input.value = '';
    });
  }

  set items(titles) {
    this.shadowRoot.querySelector('ul').replaceChildren();
    titles.forEach((t) => this.add(t));
  }

  add(title) {
    const li = document.createElement('li');
    const item = document.createElement('todo-item');
    item.textContent = title;
    li.append(item);
    this.shadowRoot.querySelector('ul').append(li);
    this.count();
  }

  count() {
    const items = [...this.shadowRoot.querySelectorAll('todo-item')];
    const left = items.filter((i) => !i.done).length;
    this.shadowRoot.querySelector('footer').textContent = `${left} item${left === 1 ? '' : 's'} left`;
  }
}

class TodoItem extends HTMLElement {
  constructor() {
    super();
    this.attachShadow({ mode: 'open' }).innerHTML = `
      <style>${base} :host { display: flex; gap: 8px; align-items: center; padding: 4px 0; } :host([done]) label { text-decoration: line-through; color: #888; }
        .remove { border: 0; background: none; color: #c33; cursor: pointer; }</style>
      <label><input type="checkbox"> <slot></slot></label>
      <button class="remove" title="Remove">×</button>`;
    this.shadowRoot.querySelector('input').addEventListener('change', (e) => {
      this.toggleAttribute('done', e.target.checked);
      this.dispatchEvent(new CustomEvent('todo-toggle', { bubbles: true, composed: true, detail: { title: this.textContent, done: e.target.checked } }));
      this.closest('li')?.getRootNode().host?.count();
    });
    this.shadowRoot.querySelector('.remove').addEventListener('click', () => {
      const app = this.closest('li')?.getRootNode().host;
      this.closest('li')?.remove();
      app?.count();
    });
  }

  get done() {
    return this.hasAttribute('done');
  }
}

/** <qty-stepper>: − value + in a CLOSED shadow root; the product name comes in through slot="label". */
class QtyStepper extends HTMLElement {
  #root;
  #value = 1;
  constructor() {
    super();
    this.#root = this.attachShadow({ mode: 'closed' });
    this.#root.innerHTML = `
      <style>${base} :host { display: flex; align-items: center; gap: 10px; padding: 6px 0; }
        .label { width: 140px; } button { width: 28px; height: 28px; } output { width: 24px; text-align: center; }</style>
      <span class="label"><slot name="label"></slot></span>
      <button class="dec" aria-label="Decrease">−</button><output>1</output><button class="inc" aria-label="Increase">+</button>`;
    this.#root.querySelector('.dec').addEventListener('click', () => (this.value = this.#value - 1));
    this.#root.querySelector('.inc').addEventListener('click', () => (this.value = this.#value + 1));
  }

  get value() {
    return this.#value;
  }

  set value(v) {
    this.#value = Math.max(0, Math.min(9, v));
    this.#root.querySelector('output').textContent = String(this.#value);
    this.dispatchEvent(new Event('change', { bubbles: true }));
  }
}

/** <fancy-input label="…">: a labelled field in an open shadow root; .value reads the inner input. */
class FancyInput extends HTMLElement {
  constructor() {
    super();
    this.attachShadow({ mode: 'open' }).innerHTML = `
      <style>${base} :host { display: block; margin: 8px 0; } label { display: block; font-size: 12px; color: #555; } input { padding: 6px; width: 260px; }</style>
      <label for="field"></label><input id="field">`;
  }

  connectedCallback() {
    this.shadowRoot.querySelector('label').textContent = this.getAttribute('label') ?? '';
  }

  get value() {
    return this.shadowRoot.querySelector('input').value;
  }

  set value(v) {
    this.shadowRoot.querySelector('input').value = v;
  }
}

/** <fancy-button>: a real <button> in a CLOSED shadow root, its text slotted from the light DOM. */
class FancyButton extends HTMLElement {
  constructor() {
    super();
    this.attachShadow({ mode: 'closed' }).innerHTML = `
      <style>${base} button { background: #6b4eff; color: white; border: 0; border-radius: 999px; padding: 8px 18px; cursor: pointer; }</style>
      <button part="button"><slot></slot></button>`;
  }
}

customElements.define('todo-app', TodoApp);
customElements.define('todo-item', TodoItem);
customElements.define('qty-stepper', QtyStepper);
customElements.define('fancy-input', FancyInput);
customElements.define('fancy-button', FancyButton);
