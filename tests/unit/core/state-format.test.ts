import { describe, expect, it } from 'vitest';
import { StateFormatError } from '../../../src/core/errors.ts';
import { elementTarget, headerValue, joinFields, parseState, renderState, type AbstractState } from '../../../src/core/state.ts';

const sample: AbstractState = {
  header: [['page', 'results'], ['instruction', "i need non-slip men's running shoes, and price lower than 60.00 dollars"]],
  elements: [
    { kind: 'button', text: 'Back to Search' },
    { kind: 'text', text: 'Page 1 (Total results: 50)' },
    { kind: 'link', text: joinFields('b07x9k2m', 'acme non-slip mesh running shoes for men', '$45.99') },
  ],
};

describe('the abstract state format', () => {
  it('renders header lines then numbered elements', () => {
    expect(renderState(sample)).toBe(
      [
        'page: results',
        "instruction: i need non-slip men's running shoes, and price lower than 60.00 dollars",
        '[1] button: Back to Search',
        '[2] text: Page 1 (Total results: 50)',
        '[3] link: b07x9k2m | acme non-slip mesh running shoes for men | $45.99',
      ].join('\n'),
    );
  });

  it('parses what it renders', () => {
    const parsed = parseState(renderState(sample));
    expect(parsed).toEqual(sample);
    expect(headerValue(parsed, 'page')).toBe('results');
    expect(elementTarget(parsed.elements[2]!)).toBe('b07x9k2m');
  });

  it('keeps one item per line when values contain newlines or separators', () => {
    const text = renderState({ header: [['feedback', 'line one\nline two']], elements: [{ kind: 'text', text: 'a\r\nb' }] });
    expect(text.split('\n')).toHaveLength(2);
    expect(joinFields('a | b', 'c')).toBe('a / b | c');
  });

  it('names the line of a malformed state', () => {
    expect(() => parseState('page: item\n[1] button: Buy Now\nnot a line')).toThrow(StateFormatError);
    expect(() => parseState('page: item\n[1] button: Buy Now\nnot a line')).toThrow(/line 3/);
    expect(() => parseState('[2] button: Buy Now')).toThrow(/should be numbered \[1\]/);
    expect(() => parseState('[1] button: x\npage: item')).toThrow(/header line after the first element/);
  });

  it('rejects keys that are not lowercase words when rendering', () => {
    expect(() => renderState({ header: [['Page', 'x']], elements: [] })).toThrow(StateFormatError);
  });
});
