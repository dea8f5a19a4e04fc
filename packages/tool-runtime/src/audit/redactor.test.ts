import { MilpaError, Type } from '@milpa/core';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SENSITIVE_FIELDS, REDACTED, Redactor } from './redactor.js';

const redactor = new Redactor();

describe('Redactor', () => {
  describe('DEFAULT_SENSITIVE_FIELDS', () => {
    it('holds the words that make a field name secret', () => {
      expect(DEFAULT_SENSITIVE_FIELDS).toEqual([
        'password',
        'passwd',
        'pwd',
        'passphrase',
        'secret',
        'token',
        'api_key',
        'access_key',
        'private_key',
        'credential',
        'session',
        'cookie',
        'authorization',
      ]);
      expect(REDACTED).toBe('***REDACTED***');
    });
  });

  describe('isSensitiveKey', () => {
    it.each([
      'password',
      'PASSWORD',
      'Token',
      'api_key',
      'apiKey',
      'API-KEY',
      'Api_Key',
      'accessToken',
      'ACCESS-TOKEN',
      'refresh-token',
      'clientSecret',
      'Authorization',
      'cookie',
      'privateKey',
      'confirm_token',
      'confirmToken',
      'tokens',
      'passwordHint',
    ])('matches %s', (key) => {
      expect(redactor.isSensitiveKey(key)).toBe(true);
    });

    it.each(['endpoint', 'username', 'token_count', 'amount', ''])('does not match %j', (key) => {
      expect(redactor.isSensitiveKey(key)).toBe(false);
    });
  });

  describe('addSensitiveField', () => {
    it('redacts the new field in any casing while other fields stay visible', () => {
      const own = new Redactor();
      own.addSensitiveField('credit_card');
      expect(own.redact({ creditCard: '4111', 'CREDIT-CARD': '4111', amount: 100 })).toEqual({
        creditCard: REDACTED,
        'CREDIT-CARD': REDACTED,
        amount: 100,
      });
    });

    it.each(['', '-_-', 42])('throws INVALID_ARGUMENT for %j', (name) => {
      expect(() => new Redactor().addSensitiveField(name as string)).toThrow(MilpaError);
    });

    it('uses only the given fields when constructed with a list', () => {
      expect(new Redactor(['pin']).redact({ pin: 1234, password: 'visible' })).toEqual({ pin: REDACTED, password: 'visible' });
    });

    it('redacts a field added after the same key was already judged public', () => {
      const own = new Redactor();
      expect(own.redact({ iban: 'DE89' })).toEqual({ iban: 'DE89' });
      expect(own.collectSecrets({ iban: 'DE89' })).toEqual([]);
      own.addSensitiveField('IBAN');
      expect(own.redact({ iban: 'DE89' })).toEqual({ iban: REDACTED });
      expect(own.collectSecrets({ iban: 'DE89' })).toEqual(['DE89']);
    });
  });

  describe('redact', () => {
    it('redacts the password and keeps the username', () => {
      expect(redactor.redact({ username: 'john', password: 'secret123' })).toEqual({ username: 'john', password: REDACTED });
    });

    it('redacts sensitive keys in any case and separator style and keeps others', () => {
      expect(
        redactor.redact({ PASSWORD: 'a', Token: 'b', secret: 'c', api_key: 'd', 'Api-Key': 'e', apiKey: 'f', endpoint: '/users' }),
      ).toEqual({
        PASSWORD: REDACTED,
        Token: REDACTED,
        secret: REDACTED,
        api_key: REDACTED,
        'Api-Key': REDACTED,
        apiKey: REDACTED,
        endpoint: '/users',
      });
    });

    it('redacts at any depth, inside objects and lists', () => {
      const value = { user: { name: 'John', password: 'nested_secret' }, list: [{ token: 't1' }, [{ deeper: { secret: 's' } }]] };
      expect(redactor.redact(value)).toEqual({
        user: { name: 'John', password: REDACTED },
        list: [{ token: REDACTED }, [{ deeper: { secret: REDACTED } }]],
      });
    });

    it('replaces the whole value of a sensitive key whatever its type', () => {
      expect(redactor.redact({ token: { value: 'x', scopes: ['a'] }, secret: ['a', 'b'], password: 1234, cookie: null })).toEqual({
        token: REDACTED,
        secret: REDACTED,
        password: REDACTED,
        cookie: REDACTED,
      });
    });

    it('drops _ctx keys at any depth', () => {
      expect(redactor.redact({ _ctx: { principal: 'p' }, a: { _ctx: 1, b: 2 } })).toEqual({ a: { b: 2 } });
    });

    it('returns a copy and leaves the input untouched', () => {
      const input = { password: 'x', nested: { token: 'y' } };
      const output = redactor.redact(input);
      expect(output).not.toBe(input);
      expect(input).toEqual({ password: 'x', nested: { token: 'y' } });
    });

    it('redacts properties the schema marks writeOnly or x-milpa-secret, at any depth', () => {
      const schema = Type.Object({
        pin: Type.String({ writeOnly: true }),
        card: Type.Object({ number: Type.String({ 'x-milpa-secret': true }), holder: Type.String() }),
        keys: Type.Array(Type.Object({ material: Type.String({ 'x-milpa-secret': true }) })),
        note: Type.Union([Type.String({ writeOnly: true }), Type.Null()]),
        plain: Type.String({ 'x-milpa-secret': false }),
      });
      const args = {
        pin: '1234',
        card: { number: '4111', holder: 'Ada' },
        keys: [{ material: 'k1' }, { material: 'k2' }],
        note: 'n',
        plain: 'p',
      };
      expect(redactor.redact(args, schema)).toEqual({
        pin: REDACTED,
        card: { number: REDACTED, holder: 'Ada' },
        keys: [{ material: REDACTED }, { material: REDACTED }],
        note: REDACTED,
        plain: 'p',
      });
    });

    it('redacts extra keys the schema marks secret through additionalProperties', () => {
      const schema = { type: 'object', properties: { id: { type: 'integer' } }, additionalProperties: { type: 'string', writeOnly: true } };
      expect(redactor.redact({ id: 1, anything: 'hidden' }, schema)).toEqual({ id: 1, anything: REDACTED });
    });

    it('marks cycles instead of recursing forever, and keeps shared references', () => {
      const shared = { v: 1 };
      const cyclic: Record<string, unknown> = { name: 'loop', shared, again: shared };
      cyclic['self'] = cyclic;
      expect(redactor.redact(cyclic)).toEqual({ name: 'loop', shared: { v: 1 }, again: { v: 1 }, self: '[Circular]' });
    });

    it('truncates very deep structures without leaking what is below', () => {
      let deep: Record<string, unknown> = { password: 'bottom-secret', visible: 'bottom' };
      for (let level = 0; level < 100; level += 1) deep = { level: deep };
      const text = JSON.stringify(redactor.redact(deep));
      expect(text).toContain('[Truncated]');
      expect(text).not.toContain('bottom');
    });

    it('keeps an own __proto__ key as data and redacts inside it without touching prototypes', () => {
      const args = JSON.parse('{"__proto__": {"password": "p", "isAdmin": true}, "a": 1}') as Record<string, unknown>;
      const output = redactor.redact(args) as Record<string, unknown>;
      expect(Object.getPrototypeOf(output)).toBe(Object.prototype);
      expect(Object.getOwnPropertyDescriptor(output, '__proto__')?.value).toEqual({ password: REDACTED, isAdmin: true });
      expect(JSON.stringify(output)).toBe('{"__proto__":{"password":"***REDACTED***","isAdmin":true},"a":1}');
      expect(({} as Record<string, unknown>)['isAdmin']).toBeUndefined();
    });

    it('converts values JSON cannot carry', () => {
      const output = redactor.redact({
        when: new Date('2026-01-02T03:04:05Z'),
        big: 12n,
        run: () => 1,
        bytes: new Uint8Array(4),
        map: new Map([
          ['token', 'x'],
          ['k', 'v'],
        ]),
        set: new Set(['a']),
        error: new Error('boom'),
      });
      expect(output).toEqual({
        when: '2026-01-02T03:04:05.000Z',
        big: '12',
        run: undefined,
        bytes: '[Binary 4 bytes]',
        map: { token: REDACTED, k: 'v' },
        set: ['a'],
        error: { name: 'Error', message: 'boom' },
      });
    });

    it('never throws, marking an unreadable field or redacting a value it cannot copy', () => {
      const withGetter = Object.defineProperty({ ok: 1 }, 'bad', {
        enumerable: true,
        get() {
          throw new Error('no');
        },
      });
      expect(redactor.redact(withGetter)).toEqual({ ok: 1, bad: '[Unreadable]' });
      const hostile = new Proxy(
        {},
        {
          ownKeys: () => {
            throw new Error('trap');
          },
        },
      );
      expect(redactor.redact({ hostile })).toBe(REDACTED);
    });

    it('redacts sensitive keys of flat arguments in every spelling, by name and by schema', () => {
      const schema = Type.Object(
        { pin: Type.String({ writeOnly: true }), note: Type.String() },
        { additionalProperties: Type.String({ 'x-milpa-secret': true }) },
      );
      const args = {
        Pass_Word: 'p1',
        'API-KEY': 'k1',
        apiKey: 'k2',
        CLIENT_SECRET: 's1',
        _Token_: 't1',
        pin: '4321',
        note: 'hi',
        other: 'o1',
      };
      expect(redactor.redact(args, schema)).toEqual({
        Pass_Word: REDACTED,
        'API-KEY': REDACTED,
        apiKey: REDACTED,
        CLIENT_SECRET: REDACTED,
        _Token_: REDACTED,
        pin: REDACTED,
        note: 'hi',
        other: REDACTED,
      });
      expect(redactor.collectSecrets(args, schema).sort()).toEqual(['4321', 'k1', 'k2', 'o1', 'p1', 's1', 't1']);
    });

    it('copies each value of flat arguments as read once, so a getter cannot swap in a nested secret', () => {
      let reads = 0;
      const args = Object.defineProperty({ name: 'ada' }, 'shifty', {
        enumerable: true,
        get() {
          reads += 1;
          return reads === 1 ? 'plain' : { password: 'leaked' };
        },
      });
      const copy = redactor.redact(args);
      expect(copy).toEqual({ name: 'ada', shifty: 'plain' });
      expect(JSON.stringify(copy)).not.toContain('leaked');
      expect(reads).toBe(1);
    });

    it('never reads the value of a sensitive key of flat arguments', () => {
      const args = Object.defineProperty({ name: 'ada' }, 'password', {
        enumerable: true,
        get() {
          throw new Error('read');
        },
      });
      expect(redactor.redact(args)).toEqual({ name: 'ada', password: REDACTED });
    });

    it('stays correct past the keys it remembers', () => {
      const own = new Redactor();
      for (let index = 0; index < 5_000; index += 1) own.redact({ [`field_${index}`]: index });
      expect(own.redact({ field_1: 1, Api_Key: 'k' })).toEqual({ field_1: 1, Api_Key: REDACTED });
    });

    it('passes primitives through', () => {
      expect(redactor.redact('text')).toBe('text');
      expect(redactor.redact(null)).toBeNull();
      expect(redactor.redact(5)).toBe(5);
    });
  });

  describe('collectSecrets', () => {
    it('collects string and number values under sensitive keys at any depth', () => {
      const secrets = redactor.collectSecrets({ password: 'pw-1', user: { api_key: 42, name: 'Ada' }, list: [{ token: 'tk' }] });
      expect(secrets.sort()).toEqual(['42', 'pw-1', 'tk']);
    });

    it('collects every leaf under a sensitive object or list', () => {
      expect(redactor.collectSecrets({ secret: { a: 'one', b: ['two', 3] } }).sort()).toEqual(['3', 'one', 'two']);
    });

    it('collects schema-marked values and skips empty strings and duplicates', () => {
      const schema = Type.Object({ pin: Type.String({ writeOnly: true }), other: Type.String() });
      expect(redactor.collectSecrets({ pin: '9999', other: 'x', token: '' }, schema)).toEqual(['9999']);
      expect(redactor.collectSecrets({ token: 'a', nested: { token: 'a' } })).toEqual(['a']);
    });

    it('survives cycles', () => {
      const cyclic: Record<string, unknown> = { token: 't' };
      cyclic['self'] = cyclic;
      expect(redactor.collectSecrets(cyclic)).toEqual(['t']);
    });
  });

  describe('collectSecrets (containers and schemas)', () => {
    it('collects secrets held in a Map, under a sensitive key or as a sensitive entry', () => {
      expect(
        redactor.collectSecrets({
          creds: new Map<unknown, unknown>([
            ['token', 'm-1'],
            ['user', 'ada'],
          ]),
        }),
      ).toEqual(['m-1']);
      expect(
        redactor.collectSecrets({
          secret: new Map<unknown, unknown>([
            [1, 'm-2'],
            ['x', 7],
          ]),
        }),
      ).toEqual(['m-2', '7']);
      expect(redactor.collectSecrets(new Map([['password', 'm-3']]))).toEqual(['m-3']);
    });

    it('collects secrets held in a Set, under a sensitive key or in an item the schema marks secret', () => {
      expect(redactor.collectSecrets({ secret: new Set(['s-1', 's-2']), other: new Set(['visible']) })).toEqual(['s-1', 's-2']);
      const schema = {
        type: 'object',
        properties: { pins: { type: 'array', items: { type: 'object', properties: { pin: { type: 'string', writeOnly: true } } } } },
      };
      expect(
        redactor.collectSecrets(
          {
            pins: new Set([
              { pin: 'p-1', label: 'a' },
              { pin: 'p-2', label: 'b' },
            ]),
          },
          schema,
        ),
      ).toEqual(['p-1', 'p-2']);
    });

    it('collects a bigint under a sensitive key and skips non-finite numbers', () => {
      expect(redactor.collectSecrets({ token: 12n })).toEqual(['12']);
      expect(redactor.collectSecrets({ nested: { token: 34n } })).toEqual(['34']);
      expect(redactor.collectSecrets({ token: Number.POSITIVE_INFINITY, secret: Number.NaN, password: true })).toEqual([]);
      expect(redactor.collectSecrets({ nested: { token: Number.NEGATIVE_INFINITY, secret: Number.NaN, password: false } })).toEqual([]);
      expect(redactor.collectSecrets({ nested: { token: 0, secret: -1.5 } })).toEqual(['0', '-1.5']);
    });

    it('collects the prefixItems entry the schema marks secret and falls back to items past them', () => {
      const plain = { type: 'object', properties: { v: { type: 'string' } } };
      const hidden = { type: 'object', properties: { v: { type: 'string', writeOnly: true } } };
      const schema = { type: 'object', properties: { pair: { type: 'array', prefixItems: [plain, hidden], items: hidden } } };
      const pair = [{ v: 'public' }, { v: 'hidden' }, { v: 'extra' }];
      expect(redactor.collectSecrets({ pair }, schema)).toEqual(['hidden', 'extra']);
      expect(redactor.redact({ pair }, schema)).toEqual({ pair: [{ v: 'public' }, { v: REDACTED }, { v: REDACTED }] });
      const open = { type: 'object', properties: { pair: { type: 'array', prefixItems: [hidden], items: plain } } };
      expect(redactor.collectSecrets({ pair: [{ v: 'first' }, { v: 'second' }] }, open)).toEqual(['first']);
      expect(redactor.redact({ pair: [{ v: 'first' }, { v: 'second' }] }, open)).toEqual({ pair: [{ v: REDACTED }, { v: 'second' }] });
    });

    it('collects from one object reached as plain first and as secret later', () => {
      const shared = { value: 'shared-1' };
      expect(redactor.collectSecrets({ first: shared, token: shared })).toEqual(['shared-1']);
      expect(redactor.collectSecrets({ token: shared, later: shared })).toEqual(['shared-1']);
    });

    it('collects from one object reached through two schema paths when only the second marks it secret', () => {
      const shared = { value: 'shared-2' };
      const schema = {
        type: 'object',
        properties: {
          open: { type: 'object', properties: { value: { type: 'string' } } },
          closed: { type: 'object', properties: { value: { type: 'string', writeOnly: true } } },
        },
      };
      expect(redactor.collectSecrets({ open: shared, closed: shared }, schema)).toEqual(['shared-2']);
    });

    it('ends on a cyclic schema with a cyclic value and still collects the secret', () => {
      const schema: Record<string, unknown> = { type: 'object' };
      schema['properties'] = { self: schema };
      const value: Record<string, unknown> = { token: 'cyclic-1' };
      value['self'] = value;
      expect(redactor.collectSecrets(value, schema)).toEqual(['cyclic-1']);
    });

    it('collects secrets nested deeper than the copy cuts off', () => {
      let deep: unknown = { token: 'deep-1' };
      for (let level = 0; level < 100; level += 1) deep = [deep];
      expect(redactor.collectSecrets({ deep })).toEqual(['deep-1']);
    });

    it('skips an unreadable field and a container that cannot be listed, and keeps the rest', () => {
      const withGetter = Object.defineProperty({ token: 'kept-1' }, 'secret', {
        enumerable: true,
        get() {
          throw new Error('no');
        },
      });
      expect(redactor.collectSecrets({ nested: withGetter })).toEqual(['kept-1']);
      const hostile = new Proxy(
        {},
        {
          ownKeys: () => {
            throw new Error('trap');
          },
        },
      );
      expect(redactor.collectSecrets({ a: { token: 'kept-2' }, hostile, b: { token: 'kept-3' } })).toEqual(['kept-2', 'kept-3']);
    });

    it('skips empty strings and duplicates below the top level', () => {
      expect(redactor.collectSecrets({ nested: { token: '', secret: 'dup', password: 'dup' }, list: [{ token: 'dup' }] })).toEqual(['dup']);
    });

    it('collects in document order', () => {
      expect(redactor.collectSecrets({ a: { token: 'one' }, b: [{ token: 'two' }, { token: 'three' }], token: 'four' })).toEqual([
        'one',
        'two',
        'three',
        'four',
      ]);
    });

    it('collects flat arguments by name and schema and skips the rest', () => {
      const schema = { type: 'object', properties: { pin: { type: 'string', writeOnly: true }, note: { type: 'string' } } };
      expect(redactor.collectSecrets({ pin: '1', note: 'n', password: 'p', user: 'u', token: '', secret: 'p' }, schema)).toEqual([
        '1',
        'p',
      ]);
      expect(
        redactor.collectSecrets({ token: Number.NaN, secret: Number.POSITIVE_INFINITY, password: 5, api_key: 6n, cookie: null }),
      ).toEqual(['5', '6']);
      expect(redactor.collectSecrets('token')).toEqual([]);
      expect(redactor.collectSecrets(null)).toEqual([]);
    });
  });

  describe('redact (limits and special values)', () => {
    const nestArrays = (levels: number): unknown => {
      let value: unknown = 'bottom';
      for (let level = 0; level < levels; level += 1) value = [value];
      return value;
    };
    const innermost = (value: unknown): unknown => {
      let current = value;
      while (Array.isArray(current)) current = current[0];
      return current;
    };

    it('keeps arrays nested 32 deep and cuts the 33rd level', () => {
      expect(innermost(redactor.redact(nestArrays(32)))).toBe('bottom');
      expect(innermost(redactor.redact(nestArrays(33)))).toBe('[Truncated]');
      expect(JSON.stringify(redactor.redact(nestArrays(40)))).not.toContain('bottom');
    });

    it('keeps the first 10,000 objects of one copy and cuts the rest, anew on every call', () => {
      const fits = Array.from({ length: 9_999 }, (_, index) => ({ index }));
      const copied = redactor.redact(fits) as unknown[];
      expect(copied[9_998]).toEqual({ index: 9_998 });
      expect(redactor.redact(fits)).toEqual(fits);
      const over = Array.from({ length: 10_000 }, (_, index) => ({ index }));
      const cut = redactor.redact(over) as unknown[];
      expect(cut[9_998]).toEqual({ index: 9_998 });
      expect(cut[9_999]).toBe('[Truncated]');
    });

    it('converts an invalid date to null, a buffer to its size and a symbol to its text', () => {
      expect(
        redactor.redact({
          when: new Date(Number.NaN),
          buffer: new ArrayBuffer(3),
          view: new DataView(new ArrayBuffer(2)),
          sym: Symbol('s'),
        }),
      ).toEqual({
        when: null,
        buffer: '[Binary 3 bytes]',
        view: '[Binary 2 bytes]',
        sym: 'Symbol(s)',
      });
      expect(redactor.redact(new Date('2026-01-02T03:04:05Z'))).toBe('2026-01-02T03:04:05.000Z');
      expect(redactor.redact(7n)).toBe('7');
    });

    it('copies arrays as arrays and redacts sensitive entries of Maps and Errors', () => {
      expect(redactor.redact(['a', 'b'])).toEqual(['a', 'b']);
      expect(Array.isArray(redactor.redact(['a']))).toBe(true);
      expect(
        redactor.redact(
          new Map<unknown, unknown>([
            [1, 'one'],
            ['_ctx', 'dropped'],
            ['secret', 's'],
          ]),
        ),
      ).toEqual({ 1: 'one', secret: REDACTED });
      const error = Object.assign(new Error('boom'), { token: 't', code: 'E' });
      expect(redactor.redact({ error })).toEqual({ error: { token: REDACTED, code: 'E', name: 'Error', message: 'boom' } });
    });

    it('redacts properties the schema marks secret inside Set items', () => {
      const schema = {
        type: 'object',
        properties: { pins: { type: 'array', items: { type: 'object', properties: { pin: { type: 'string', writeOnly: true } } } } },
      };
      expect(redactor.redact({ pins: new Set([{ pin: '1', label: 'a' }]) }, schema)).toEqual({ pins: [{ pin: REDACTED, label: 'a' }] });
    });

    it('drops _ctx from flat arguments and keeps declared properties visible beside secret extra ones', () => {
      const schema = {
        type: 'object',
        properties: { note: { type: 'string' } },
        additionalProperties: { type: 'string', writeOnly: true },
      };
      expect(redactor.redact({ _ctx: 'c', note: 'n', extra: 'e', flag: true, none: null }, schema)).toEqual({
        note: 'n',
        extra: REDACTED,
        flag: REDACTED,
        none: REDACTED,
      });
      expect(redactor.redact({ _ctx: 'c', a: 1, b: null, c: undefined, d: false })).toEqual({ a: 1, b: null, c: undefined, d: false });
    });

    it('copies an object without a prototype like a plain one', () => {
      const args = Object.assign(Object.create(null) as Record<string, unknown>, { password: 'p', name: 'n' });
      expect(redactor.redact(args)).toEqual({ password: REDACTED, name: 'n' });
      expect(redactor.collectSecrets(args)).toEqual(['p']);
    });
  });

  describe('redact (copy details)', () => {
    it('keeps undefined values below the top level', () => {
      expect(redactor.redact({ a: { b: undefined, c: 1 } })).toStrictEqual({ a: { b: undefined, c: 1 } });
    });

    it('cuts Sets nested deeper than 32 levels', () => {
      let value: unknown = 'bottom';
      for (let level = 0; level < 40; level += 1) value = new Set([value]);
      const text = JSON.stringify(redactor.redact(value));
      expect(text).toContain('[Truncated]');
      expect(text).not.toContain('bottom');
    });

    it('adds name and message only for errors', () => {
      const copy = redactor.redact({ a: { b: 1 } }) as { a: object };
      expect(Object.keys(copy.a)).toEqual(['b']);
    });

    it('writes an own __proto__ key as a writable, enumerable, configurable data field', () => {
      const args = JSON.parse('{"__proto__": {"x": 1}, "list": [1]}') as Record<string, unknown>;
      const output = redactor.redact(args) as Record<string, unknown>;
      expect(Object.getOwnPropertyDescriptor(output, '__proto__')).toEqual({
        value: { x: 1 },
        writable: true,
        enumerable: true,
        configurable: true,
      });
    });
  });

  describe('addSensitiveField (message)', () => {
    it('names the refused field and the INVALID_ARGUMENT code', () => {
      expect(() => new Redactor().addSensitiveField('-_')).toThrow(
        expect.objectContaining({ code: 'INVALID_ARGUMENT', message: 'A sensitive field name must be a non-empty string, got "-_".' }),
      );
    });
  });

  describe('isSensitiveKey (inputs)', () => {
    it('returns false for a key that is not a string', () => {
      expect(redactor.isSensitiveKey(5 as never)).toBe(false);
      expect(redactor.isSensitiveKey(undefined as never)).toBe(false);
    });
  });

  describe('scrub (inputs)', () => {
    it('replaces a secret in text that is not a string and redacts everything when it cannot scrub', () => {
      expect(redactor.scrub(12345 as never, ['234'])).toBe(`1${REDACTED}5`);
      const hostile = {
        toString: () => {
          throw new Error('no');
        },
      };
      expect(redactor.scrub(hostile as never, ['x'])).toBe(REDACTED);
      expect(redactor.scrub('a\nb and a\\nb', ['a\nb'])).toBe(`${REDACTED} and ${REDACTED}`);
    });
  });

  describe('scrub', () => {
    it('replaces every occurrence of each secret', () => {
      expect(redactor.scrub('login failed for pw-1 (pw-1)', ['pw-1'])).toBe(`login failed for ${REDACTED} (${REDACTED})`);
    });

    it('replaces longer secrets first so no remnant of a longer one survives', () => {
      expect(redactor.scrub('key=abcdef', ['abc', 'abcdef'])).toBe(`key=${REDACTED}`);
    });

    it('replaces the JSON-escaped form of a secret', () => {
      expect(redactor.scrub('{"password":"a\\"b"}', ['a"b'])).toBe(`{"password":"${REDACTED}"}`);
    });

    it('treats regular-expression characters literally', () => {
      expect(redactor.scrub('a.b and axb', ['a.b'])).toBe(`${REDACTED} and axb`);
    });

    it('returns the text unchanged without non-empty secrets', () => {
      expect(redactor.scrub('nothing here', ['', 5 as never])).toBe('nothing here');
    });
  });
});
