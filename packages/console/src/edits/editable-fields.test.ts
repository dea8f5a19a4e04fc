import { describe, expect, it } from 'vitest';
import { editableFieldsOf, formatFieldValue, isSecretField, isTooLongToEdit } from './editable-fields.js';
import { normalizeLineBreaks, readTypedValue } from './read-typed-value.js';

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
    api_key: { type: 'string' },
    tags: { type: 'array', items: { type: 'string' } },
    meta: { type: 'object' },
  },
};

describe('editableFieldsOf', () => {
  it('offers declared primitive fields, marks secret ones (by schema or name), and never array or object ones', () => {
    expect(editableFieldsOf(schema, null).map((field) => [field.name, field.kind, field.choices, field.secret])).toEqual([
      ['title', 'string', null, false],
      ['copies', 'integer', null, false],
      ['ratio', 'number', null, false],
      ['urgent', 'boolean', null, false],
      ['colour', 'string', ['red', 'green'], false],
      ['password', 'string', null, true],
      ['token', 'string', null, true],
      ['api_key', 'string', null, true],
    ]);
  });

  it('narrows to the names given', () => {
    expect(editableFieldsOf(schema, ['copies', 'tags']).map((field) => field.name)).toEqual(['copies']);
  });
});

describe('isSecretField', () => {
  it('follows the runtime: schema marks, then the secret-name rule', () => {
    expect(isSecretField({ properties: { code: { format: 'password' } } }, 'code')).toBe(true);
    expect(isSecretField(null, 'X-Api-Key')).toBe(true);
    expect(isSecretField(null, 'max_tokens')).toBe(false);
    expect(isSecretField(schema, 'title')).toBe(false);
  });
});

describe('isTooLongToEdit', () => {
  it('is true past 16 KiB of JSON only', () => {
    expect(isTooLongToEdit('x'.repeat(16 * 1024 - 2))).toBe(false);
    expect(isTooLongToEdit('x'.repeat(16 * 1024))).toBe(true);
    expect(isTooLongToEdit(undefined)).toBe(false);
  });
});

describe('readTypedValue', () => {
  const byName = new Map(editableFieldsOf(schema, null).map((field) => [field.name, field]));
  const field = (name: string) => byName.get(name)!;

  it('keeps an untouched text value unchanged through CRLF line breaks, and keeps a typed \\n as \\n', () => {
    expect(readTypedValue(field('title'), 'a\r\nb', 'a\nb', true)).toEqual({ kind: 'unchanged' });
    expect(readTypedValue(field('title'), 'a\r\nb', 'a\r\nb', true)).toEqual({ kind: 'unchanged' });
    expect(readTypedValue(field('title'), 'a\r\nb\r\nc', 'a\nb', true)).toEqual({ kind: 'value', value: 'a\nb\nc' });
    expect(normalizeLineBreaks('a\rb\r\nc')).toBe('a\nb\nc');
  });

  it('leaves an absent optional field unset when it is left empty, and sets it when given', () => {
    expect(readTypedValue(field('title'), '', undefined, false)).toEqual({ kind: 'unchanged' });
    expect(readTypedValue(field('urgent'), '', undefined, false)).toEqual({ kind: 'unchanged' });
    expect(readTypedValue(field('urgent'), 'false', undefined, false)).toEqual({ kind: 'value', value: false });
    expect(readTypedValue(field('copies'), ' ', undefined, false)).toEqual({ kind: 'unchanged' });
  });

  it('compares numbers by value and refuses integers it cannot hold exactly', () => {
    expect(readTypedValue(field('ratio'), '0.10', 0.1, true)).toEqual({ kind: 'unchanged' });
    expect(readTypedValue(field('ratio'), '1e21', 1e21, true)).toEqual({ kind: 'unchanged' });
    expect(readTypedValue(field('copies'), '-5', 3, true)).toEqual({ kind: 'value', value: -5 });
    expect(readTypedValue(field('copies'), '9007199254740993', 3, true).kind).toBe('invalid');
    expect(readTypedValue(field('copies'), '2.5', 3, true).kind).toBe('invalid');
    expect(readTypedValue(field('copies'), 'seven', 3, true).kind).toBe('invalid');
  });

  it('reads choices only from the listed values, and an empty secret as unchanged', () => {
    expect(readTypedValue(field('colour'), 'blue', 'red', true).kind).toBe('invalid');
    expect(readTypedValue(field('colour'), 'red', 'red', true)).toEqual({ kind: 'unchanged' });
    expect(readTypedValue(field('password'), '', undefined, false)).toEqual({ kind: 'unchanged' });
    expect(readTypedValue(field('password'), 's3cret', undefined, false)).toEqual({ kind: 'value', value: 's3cret' });
  });

  it('formats values for a form field', () => {
    expect(formatFieldValue(undefined)).toBe('');
    expect(formatFieldValue(3)).toBe('3');
    expect(formatFieldValue(1e21)).toBe('1e+21');
  });
});
