import { describe, expect, it } from 'vitest';
import { booleanField, numberField, stringField } from './data-field.js';

describe('numberField', () => {
  it('returns the number when the field holds one, else null', () => {
    expect(numberField({ next_offset: 3 }, 'next_offset')).toBe(3);
    expect(numberField({ next_offset: '3' }, 'next_offset')).toBeNull();
    expect(numberField([3], '0')).toBeNull();
    expect(numberField(null, 'next_offset')).toBeNull();
  });
});

describe('booleanField', () => {
  it('returns the boolean when the field holds one, else null', () => {
    expect(booleanField({ truncated: false }, 'truncated')).toBe(false);
    expect(booleanField({ truncated: 0 }, 'truncated')).toBeNull();
  });
});

describe('stringField', () => {
  it('returns the string when the field holds one, else null', () => {
    expect(stringField({ title: 'Weed' }, 'title')).toBe('Weed');
    expect(stringField({}, 'title')).toBeNull();
  });
});
