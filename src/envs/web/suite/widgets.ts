/**
 * The bundled suite's single-widget tasks (after MiniWoB++'s simplest ones): each a seeded
 * generator of the instance the page builds, an instruction, and an oracle that reads the page's
 * element lines and acts through the admissible actions. The page checks the outcome itself
 * (public/web/suite/<task>.html).
 */
import { Rng } from '../../../core/rng.ts';
import type { Observation } from '../../../core/types.ts';
import { GO_BACK } from '../actions.ts';
import type { TaskProgram } from '../site.ts';
import { elementsWithRole, findElement, on } from './oracle-tools.ts';
import { BUTTON_WORDS, FIELD_LABELS, FIRST_NAMES, WORDS } from './words.ts';

type Oracle = (observation: Observation) => string;

/** A task program from a generator and an oracle made per episode (it may keep its place). */
function program<D>(generate: (rng: Rng, seed: number, split: string) => { instruction: string; data: D }, oracle: (data: D) => Oracle, id: string): TaskProgram {
  return {
    generate: (seed, split) => generate(new Rng(`web:${id}:${seed}`), seed, split),
    createOracle: (data) => oracle(data as D),
  };
}

const capital = (w: string): string => w.charAt(0).toUpperCase() + w.slice(1);

export const WIDGET_TASKS: Record<string, TaskProgram> = {
  'click-button': program((rng) => {
    const buttons = rng.sample(BUTTON_WORDS, 5 + rng.int(4));
    const target = rng.pick(buttons);
    return { instruction: `Click the button labelled "${target}".`, data: { buttons, target } };
  }, (data) => (o) => on(findElement(o, 'button', data.target), 'click'), 'click-button'),

  'click-link': program((rng) => {
    const words = rng.sample(WORDS, 8 + rng.int(6));
    const links = rng.sample(words.map((_, i) => i), 4 + rng.int(4));
    const target = words[rng.pick(links)] as string;
    return { instruction: `Click the link "${target}".`, data: { words, links, target } };
  }, (data) => (o) => on(findElement(o, 'link', data.target), 'click'), 'click-link'),

  'click-button-sequence': program((rng) => {
    const buttons = rng.sample(WORDS, 4 + rng.int(3)).map(capital);
    const order = rng.sample(buttons, 2);
    return { instruction: `Click "${order[0]}", then "${order[1]}".`, data: { buttons, order } };
  }, (data) => {
    let next = 0;
    return (o) => on(findElement(o, 'button', data.order[Math.min(next++, data.order.length - 1)] as string), 'click');
  }, 'click-button-sequence'),

  'enter-text': program((rng) => {
    const label = rng.pick(FIELD_LABELS);
    const text = rng.pick(WORDS);
    return { instruction: `Enter "${text}" in the ${label.toLowerCase()} field and submit.`, data: { label, text } };
  }, (data) => {
    let typed = false;
    return (o) => {
      const field = findElement(o, 'textbox', data.label);
      if (!typed || field?.value !== data.text) {
        typed = true;
        return on(field, 'type', data.text);
      }
      return on(findElement(o, 'button', 'Submit'), 'click');
    };
  }, 'enter-text'),

  'enter-text-enter': program((rng) => {
    const label = rng.pick(['Search', 'Message', 'Query', 'Find']);
    const text = `${rng.pick(WORDS)} ${rng.pick(WORDS)}`;
    return { instruction: `Type "${text}" into the ${label.toLowerCase()} box and press Enter.`, data: { label, text } };
  }, (data) => (o) => {
    const field = findElement(o, ['searchbox', 'textbox'], data.label);
    return field?.value === data.text ? on(field, 'press', 'Enter') : on(field, 'type', data.text);
  }, 'enter-text-enter'),

  'login-user': program((rng) => {
    const username = rng.pick(FIRST_NAMES);
    const password = `${rng.pick(WORDS)}${10 + rng.int(90)}`;
    return { instruction: `Log in with the username "${username}" and the password "${password}".`, data: { username, password } };
  }, (data) => (o) => {
    const user = findElement(o, 'textbox', 'Username');
    if (user?.value !== data.username) return on(user, 'type', data.username);
    const pass = findElement(o, 'textbox', 'Password');
    // A password field shows its value masked; the oracle types it once, then logs in.
    if (pass?.value === '') return on(pass, 'type', data.password);
    return on(findElement(o, 'button', 'Log in'), 'click');
  }, 'login-user'),

  'click-checkboxes': program((rng) => {
    const options = rng.sample(WORDS, 3 + rng.int(4));
    const wanted = rng.sample(options, rng.int(Math.min(3, options.length)) + 1);
    return { instruction: `Select ${wanted.map((w) => `"${w}"`).join(', ')} and nothing else, then click Submit.`, data: { options, wanted } };
  }, (data) => (o) => {
    for (const box of elementsWithRole(o, 'checkbox')) {
      const want = data.wanted.includes(box.name);
      if (want !== box.states.includes('checked')) return on(box, want ? 'check' : 'uncheck');
    }
    return on(findElement(o, 'button', 'Submit'), 'click');
  }, 'click-checkboxes'),

  'click-option': program((rng) => {
    const options = rng.sample(WORDS, 4 + rng.int(3));
    const target = rng.pick(options);
    return { instruction: `Choose "${target}" and click Submit.`, data: { options, target, question: 'Pick one' } };
  }, (data) => (o) => {
    const radio = findElement(o, 'radio', data.target);
    return radio && !radio.states.includes('checked') ? on(radio, 'check') : on(findElement(o, 'button', 'Submit'), 'click');
  }, 'click-option'),

  'choose-list': program((rng) => {
    const options = rng.sample(WORDS, 4 + rng.int(5)).map(capital);
    const target = rng.pick(options.slice(1));
    const label = rng.pick(['Colour', 'Fruit', 'Place', 'Size', 'Flavour']);
    return { instruction: `Choose "${target}" from the ${label.toLowerCase()} list and click Submit.`, data: { options, target, label } };
  }, (data) => (o) => {
    const list = findElement(o, ['combobox', 'listbox'], data.label);
    return list && list.value !== data.target ? on(list, 'select', data.target) : on(findElement(o, 'button', 'Submit'), 'click');
  }, 'choose-list'),

  'click-tab': program((rng) => {
    const count = 3 + rng.int(3);
    const words = rng.sample(WORDS, count * 3);
    const tabs = Array.from({ length: count }, (_, i) => words.slice(i * 3, i * 3 + 3));
    const target = rng.pick(words.slice(3));
    return { instruction: `Find the link "${target}" in one of the tabs and click it.`, data: { tabs, target } };
  }, (data) => (o) => {
    const link = findElement(o, 'link', data.target);
    if (link) return on(link, 'click');
    const at = data.tabs.findIndex((links) => links.includes(data.target));
    return on(findElement(o, 'tab', `Tab ${at + 1}`), 'click');
  }, 'click-tab'),

  'click-collapsible': program((rng) => {
    const count = 3 + rng.int(3);
    const titles = rng.sample(WORDS, count).map((w) => `${capital(w)} section`);
    const names = rng.sample(WORDS, count * 2).map(capital);
    const sections = titles.map((title, i) => ({ title, buttons: names.slice(i * 2, i * 2 + 2) }));
    const target = rng.pick(names);
    return { instruction: `Open the section that holds the "${target}" button and click it.`, data: { sections, target } };
  }, (data) => (o) => {
    const button = findElement(o, 'button', data.target);
    if (button) return on(button, 'click');
    const section = data.sections.find((s) => s.buttons.includes(data.target));
    return on(findElement(o, 'button', section?.title ?? ''), 'click');
  }, 'click-collapsible'),

  'click-dialog': program((rng) => {
    const buttons = rng.shuffle([{ text: '×', label: 'Close' }, { text: 'OK', label: 'OK' }, { text: 'Cancel', label: 'Cancel' }, { text: 'Apply', label: 'Apply' }, { text: 'Help', label: 'Help' }]);
    const target = rng.pick(buttons).label;
    const title = `${capital(rng.pick(WORDS))} settings`;
    return { instruction: `Close the dialog with its "${target}" button.`, data: { buttons, target, title, body: `Changes to ${rng.pick(WORDS)} will apply at once.` } };
  }, (data) => (o) => on(findElement(o, 'button', data.target), 'click'), 'click-dialog'),

  'browse-pages': program((rng) => {
    const names = rng.sample(WORDS, 4 + rng.int(4)).map((w) => `${capital(w)} ${rng.pick(['lamp', 'chair', 'mug', 'kite', 'scarf', 'clock'])}`);
    const items = names.map((name) => ({ name, blurb: `A ${name.toLowerCase()} in ${rng.pick(WORDS)} tones.` }));
    const target = rng.pick(names);
    return { instruction: `Open the page of the ${target} and order it.`, data: { items, target } };
  }, (data) => (o) => {
    const order = findElement(o, 'button', `Order ${data.target}`);
    if (order) return on(order, 'click');
    const link = findElement(o, 'link', data.target);
    if (link) return on(link, 'click');
    return o.actions.includes(GO_BACK) ? GO_BACK : on(findElement(o, 'link', 'Back to the catalogue'), 'click');
  }, 'browse-pages'),
  'click-menu': program((rng) => {
    const names = rng.sample(['File', 'Edit', 'View', 'Insert', 'Format', 'Tools'], 3 + rng.int(2));
    const pool = rng.shuffle(WORDS.map(capital));
    const menus = names.map((name, i) => ({ name, items: pool.slice(i * 4, i * 4 + 4) }));
    const menu = rng.pick(menus);
    const item = rng.pick(menu.items);
    return { instruction: `Choose "${item}" from the ${menu.name} menu.`, data: { menus, menu: menu.name, item } };
  }, (data) => (o) => {
    const item = findElement(o, 'menuitem', data.item);
    return item ? on(item, 'click') : on(findElement(o, 'button', data.menu), 'click');
  }, 'click-menu'),

  'enter-date': program((rng) => {
    const date = `20${20 + rng.int(10)}-${String(1 + rng.int(12)).padStart(2, '0')}-${String(1 + rng.int(28)).padStart(2, '0')}`;
    const label = rng.pick(['Start date', 'Due date', 'Birthday', 'Arrival']);
    return { instruction: `Enter ${date} as the ${label.toLowerCase()} and submit.`, data: { date, label } };
  }, (data) => (o) => {
    const field = findElement(o, 'textbox', data.label);
    return field?.value === data.date ? on(findElement(o, 'button', 'Submit'), 'click') : on(field, 'type', data.date);
  }, 'enter-date'),

  'signup-form': program((rng) => {
    const first = rng.pick(FIRST_NAMES);
    const name = `${capital(first)} ${capital(rng.pick(WORDS))}`;
    const email = `${first}${rng.int(100)}@example.com`;
    const password = `${rng.pick(WORDS)}-${rng.pick(WORDS)}`;
    return { instruction: `Sign up as "${name}" with the e-mail ${email} and the password "${password}".`, data: { name, email, password } };
  }, (data) => (o) => {
    const steps: [string, string][] = [['Full name', data.name], ['E-mail', data.email]];
    for (const [label, value] of steps) {
      const field = findElement(o, 'textbox', label);
      if (field?.value !== value) return on(field, 'type', value);
    }
    // Password fields show dots: type each once, by its length.
    for (const label of ['Password', 'Confirm password']) {
      const field = findElement(o, 'textbox', label);
      if (field?.value?.length !== data.password.length) return on(field, 'type', data.password);
    }
    const terms = findElement(o, 'checkbox', 'I accept the terms');
    if (terms && !terms.states.includes('checked')) return on(terms, 'check');
    return on(findElement(o, 'button', 'Create account'), 'click');
  }, 'signup-form'),

  'search-list': program((rng) => {
    const items = rng.sample(WORDS, 18 + rng.int(12)).map((w) => `${capital(w)} ${rng.pick(['tea', 'soap', 'rope', 'ink', 'wax', 'salt'])}`);
    const target = rng.pick(items);
    return { instruction: `Find "${target}" in the list and select it.`, data: { items, target } };
  }, (data) => (o) => {
    const select = findElement(o, 'button', `Select ${data.target}`);
    if (select) return on(select, 'click');
    return on(findElement(o, 'searchbox', 'Filter items'), 'type', data.target);
  }, 'search-list'),

  'toggle-switch': program((rng) => {
    const names = rng.sample(['Dark mode', 'Notifications', 'Autosave', 'Location', 'Sounds', 'Sync', 'Captions'], 3 + rng.int(3));
    const settings = names.map((name) => ({ name, on: rng.chance(0.5) }));
    const target = rng.pick(settings);
    const want = !target.on;
    return { instruction: `Turn ${want ? 'on' : 'off'} ${target.name.toLowerCase()} and save.`, data: { settings, target: target.name, want } };
  }, (data) => (o) => {
    const toggle = findElement(o, 'switch', data.target);
    if (toggle && toggle.states.includes('checked') !== data.want) return on(toggle, 'click');
    return on(findElement(o, 'button', 'Save'), 'click');
  }, 'toggle-switch'),
};
