import { describe, expect, it } from 'vitest';
import { editableFieldsOf, formatFieldValue, readFieldValue } from './editable-fields.js';

const schema = {
  type: 'object',
  properties: {
    title: { type: 'string', description: 'One line.' },
    copies: { type: 'integer' },
    ratio: { type: ['number', 'null'] },
    urgent: { type: 'boolean' },
    colour: { type: 'string', enum: ['red', 'green'] },
    password: { type: 'string', writeOnly: true },
    token: { type: 'string', 'x-milpa-secret': true },
    tags: { type: 'array', items: { type: 'string' } },
    meta: { type: 'object' },
  },
};

describe('editableFieldsOf', () => {
  it('offers declared primitive fields and never secret, array or object ones', () => {
    expect(editableFieldsOf(schema, null).map((field) => [field.name, field.kind, field.choices])).toEqual([
      ['title', 'string', null],
      ['copies', 'integer', null],
      ['ratio', 'number', null],
      ['urgent', 'boolean', null],
      ['colour', 'string', ['red', 'green']],
    ]);
  });

  it('narrows to the names given', () => {
    expect(editableFieldsOf(schema, ['copies', 'password']).map((field) => field.name)).toEqual(['copies']);
  });
});

describe('readFieldValue', () => {
  const [title, copies, , urgent] = editableFieldsOf(schema, null);

  it('reads numbers and booleans, and keeps unreadable text as text for the schema to refuse', () => {
    expect(readFieldValue(copies!, ' 7 ')).toBe(7);
    expect(readFieldValue(copies!, 'seven')).toBe('seven');
    expect(readFieldValue(copies!, '1e2')).toBe(100);
    expect(readFieldValue(urgent!, 'true')).toBe(true);
    expect(readFieldValue(urgent!, 'yes')).toBe('yes');
    expect(readFieldValue(title!, ' 7 ')).toBe(' 7 ');
  });

  it('formats values for a form field', () => {
    expect(formatFieldValue(undefined)).toBe('');
    expect(formatFieldValue('a')).toBe('a');
    expect(formatFieldValue(3)).toBe('3');
    expect(formatFieldValue(false)).toBe('false');
  });
});
