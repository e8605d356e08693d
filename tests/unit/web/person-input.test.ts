import { describe, expect, it } from 'vitest';
import { personAction } from '../../../src/envs/web/person.ts';

const ADMISSIBLE = [
  'click[#3 Submit]',
  'click[#4 Submit]',
  'check[#5 Remember me]',
  'type[#6 Email | ...]',
  'select[#7 Size | Small]',
  'select[#7 Size | Large]',
  'press[#6 Email | Enter]',
  'go back',
];

describe('a person\'s input on the live page as an admissible action', () => {
  it('maps a click by the element\'s id, so two buttons with one name stay apart', () => {
    expect(personAction({ kind: 'click', id: 4 }, ADMISSIBLE)).toBe('click[#4 Submit]');
    expect(personAction({ kind: 'click', id: 3 }, ADMISSIBLE)).toBe('click[#3 Submit]');
  });

  it('maps a click on a checkbox to the check the page lists', () => {
    expect(personAction({ kind: 'click', id: 5 }, ADMISSIBLE)).toBe('check[#5 Remember me]');
  });

  it('fills a field\'s template with what was typed, and chooses an option by its text', () => {
    expect(personAction({ kind: 'type', id: 6, text: 'ada@example.com' }, ADMISSIBLE)).toBe('type[#6 Email | ada@example.com]');
    expect(personAction({ kind: 'select', id: 7, option: 'large' }, ADMISSIBLE)).toBe('select[#7 Size | Large]');
    expect(personAction({ kind: 'press', id: 6, key: 'Enter' }, ADMISSIBLE)).toBe('press[#6 Email | Enter]');
  });

  it('answers null for what the page does not admit: an unknown id, an empty field, an option not listed', () => {
    expect(personAction({ kind: 'click', id: 99 }, ADMISSIBLE)).toBeNull();
    expect(personAction({ kind: 'click', id: 6 }, ADMISSIBLE)).toBeNull();
    expect(personAction({ kind: 'type', id: 6, text: '   ' }, ADMISSIBLE)).toBeNull();
    expect(personAction({ kind: 'select', id: 7, option: 'Medium' }, ADMISSIBLE)).toBeNull();
    expect(personAction({ kind: 'press', id: 6, key: 'Escape' }, ADMISSIBLE)).toBeNull();
  });
});
