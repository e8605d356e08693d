import { describe, expect, it } from 'vitest';
import { tooLargeMessage } from '../../../src/app/file-size.ts';

describe('tooLargeMessage', () => {
  it('passes a file up to the limit and names both sizes past it', () => {
    expect(tooLargeMessage({ name: 'p.dgp', size: 1000 }, 1000, 'a policy file')).toBeNull();
    expect(tooLargeMessage({ name: 'movie.dgp', size: 1_234_567 }, 1000, 'a policy file')).toBe(
      'movie.dgp is 1,234,567 bytes, more than the 1,000 bytes a policy file may be; it is probably not one.',
    );
  });
});
