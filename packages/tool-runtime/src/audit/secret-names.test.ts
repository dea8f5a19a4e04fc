import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { REDACTED, Redactor } from './redactor.js';
import { DEFAULT_SENSITIVE_FIELDS, SecretNames, compactName, nameWords } from './secret-names.js';

const redactor = new Redactor();

/** The secret words, each as its words, as a caller might spell them in a longer name. */
const SECRET_PHRASES: readonly (readonly string[])[] = [
  ['password'],
  ['passwd'],
  ['pwd'],
  ['passphrase'],
  ['secret'],
  ['token'],
  ['api', 'key'],
  ['access', 'key'],
  ['private', 'key'],
  ['credential'],
  ['credentials'],
  ['session'],
  ['cookie'],
  ['authorization'],
];
/** Words that would turn a lone `token` into a token count (the one exception), kept out of the generated affixes. */
const COUNTING = new Set(['count', 'counts', 'limit', 'limits', 'budget', 'usage', 'max', 'min', 'total', 'num', 'used', 'remaining']);
const SEPARATORS = ['_', '-', '.', ' ', '__', '-_', '/', ':'];

const affixWord = fc.stringMatching(/^[a-z]{1,7}$/).filter((word) => !COUNTING.has(word) && !COUNTING.has(`${word}s`));
const affix = fc.oneof(affixWord, fc.stringMatching(/^[0-9]{1,3}$/));

/** Any casing per letter. */
function recase(word: string, uppers: readonly boolean[]): string {
  return [...word].map((letter, index) => (uppers[index % uppers.length] ? letter.toUpperCase() : letter)).join('');
}

/**
 * A name holding one secret phrase: random casing, random separators (or camelCase humps) between
 * its words, random words before and after. A phrase of four letters or fewer (`pwd`) matches whole
 * words only, so its affixes are always set off by a separator.
 */
const secretName = fc
  .record({
    phrase: fc.constantFrom(...SECRET_PHRASES),
    uppers: fc.array(fc.boolean(), { minLength: 1, maxLength: 12 }),
    inner: fc.constantFrom('', ...SEPARATORS, 'camel'),
    before: fc.array(affix, { maxLength: 3 }),
    after: fc.array(affix, { maxLength: 3 }),
    joint: fc.constantFrom('', ...SEPARATORS),
  })
  .map(({ phrase, uppers, inner, before, after, joint }) => {
    const title = (word: string): string => word.charAt(0).toUpperCase() + word.slice(1);
    const core =
      inner === 'camel' ? phrase.map((word, index) => (index === 0 ? word : title(word))).join('') : recase(phrase.join(inner), uppers);
    const short = phrase.join('').length < 5;
    const glue = short && joint === '' ? '_' : joint;
    return [...before, core, ...after].join(glue);
  });

/** The issue's own list of names that leaked, plus header names. */
const LEAKED_NAMES = [
  'password',
  'db_password',
  'new_password',
  'github_token',
  'sessionToken',
  'aws_secret_access_key',
  'passphrase',
  'private_token',
  'X-Api-Key',
  'Private-Token',
  'client_secret',
  'passwd',
  'pwd',
  'secret',
  'token',
  'api key',
  'access key',
  'private key',
  'credential',
  'credentials',
  'session',
  'cookie',
  'authorization',
  'Proxy-Authorization',
  'Set-Cookie',
  'x-amz-security-token',
  'AWS_SECRET_ACCESS_KEY',
  'user.password',
  'DB_PWD',
  'userPwd',
  'refreshToken',
  'id_token',
  'accesstoken',
  'APIKEY',
  'apiKeyV2',
  'oauth2AccessToken',
  'sessionId',
  'tokens',
  'input_token',
  'to\u212Aen',
  '\uFF50\uFF41\uFF53\uFF53\uFF57\uFF4F\uFF52\uFF44',
  'pass\u200Bword',
];

describe('SecretNames', () => {
  describe('generated names', () => {
    it('redacts every name that holds a secret word, whatever its casing, separators and surrounding words', () => {
      fc.assert(
        fc.property(secretName, fc.string({ maxLength: 10 }), (name, value) => {
          expect(redactor.isSensitiveKey(name)).toBe(true);
          expect(redactor.redact({ [name]: value, plain: 'kept' })).toEqual({ [name]: REDACTED, plain: 'kept' });
          expect(redactor.redact({ outer: [{ [name]: value }] })).toEqual({ outer: [{ [name]: REDACTED }] });
        }),
        { numRuns: 1_000 },
      );
    });

    it('never redacts a name made only of letters no secret word uses', () => {
      const publicName = fc.stringMatching(/^[bfgjmqxBFGJMQX_\-. 0-9]{1,16}$/);
      fc.assert(
        fc.property(publicName, (name) => {
          expect(redactor.isSensitiveKey(name)).toBe(false);
        }),
        { numRuns: 500 },
      );
    });
  });

  describe('listed names', () => {
    it.each(LEAKED_NAMES)('redacts %j', (name) => {
      expect(redactor.isSensitiveKey(name)).toBe(true);
      expect(redactor.redact({ [name]: 'hunter2' })).toEqual({ [name]: REDACTED });
      expect(redactor.collectSecrets({ [name]: 'hunter2' })).toEqual(['hunter2']);
    });

    it.each([
      'username',
      'endpoint',
      'user_id',
      'path',
      'amount',
      'cwd',
      'shipping',
      'description',
      'keyword',
      'monkey',
      'author',
      'pass',
      'sess',
    ])('keeps %j readable', (name) => {
      expect(redactor.isSensitiveKey(name)).toBe(false);
      expect(redactor.redact({ [name]: 'value' })).toEqual({ [name]: 'value' });
    });
  });

  describe('token counts', () => {
    it.each([
      'max_tokens',
      'maxTokens',
      'MAX_TOKENS',
      'max_output_tokens',
      'max_completion_tokens',
      'token_count',
      'token_counts',
      'tokenCount',
      'token_limit',
      'token_limits',
      'tokenBudget',
      'token_usage',
      'total_tokens',
      'num_tokens',
      'tokens_used',
      'min_tokens',
      'remaining_tokens',
      'input_tokens',
      'output_tokens',
      'prompt_tokens',
      'completion_tokens',
      'reasoning_tokens',
      'cached_tokens',
    ])('keeps the count %j readable', (name) => {
      expect(redactor.isSensitiveKey(name)).toBe(false);
      expect(redactor.redact({ [name]: 512 })).toEqual({ [name]: 512 });
    });

    it.each([
      ['tokens alone', 'tokens'],
      ['a singular token beside a plural-only word', 'input_token'],
      ['a singular token beside another plural-only word', 'prompt_token'],
      ['token inside a longer word', 'apitoken_count'],
      ['token split across words', 'to_ken_count'],
      ['a second secret word', 'session_token_count'],
      ['a second secret word beside max', 'max_password_tokens'],
      ['two tokens, one inside a word', 'max_tokens_refreshtoken'],
      ['a token-count word without a count', 'token_value'],
    ])('redacts %s (%j)', (_why, name) => {
      expect(redactor.isSensitiveKey(name)).toBe(true);
    });

    it('applies the exception in a set of names without short names too', () => {
      const names = new SecretNames(['token', 'secret']);
      expect(names.matches('max_tokens')).toBe(false);
      expect(names.matches('max_secret_tokens')).toBe(true);
      expect(names.matches('github_token')).toBe(true);
    });

    it('keeps the exception to the word token: a host name that counts stays secret', () => {
      const own = new Redactor();
      own.addSensitiveField('max_tokens');
      expect(own.isSensitiveKey('max_tokens')).toBe(true);
      expect(own.isSensitiveKey('token_count')).toBe(false);
    });
  });

  describe('host names', () => {
    it('matches a name of five characters or more anywhere in a longer name', () => {
      const own = new Redactor(['credit_card']);
      for (const name of ['creditCard', 'CREDIT-CARD', 'customer_credit_card_number', 'mycreditcard', 'Credit Card']) {
        expect(own.isSensitiveKey(name)).toBe(true);
      }
      expect(own.isSensitiveKey('credit')).toBe(false);
    });

    it('matches a name of four characters or fewer as whole words only', () => {
      const own = new Redactor(['pin']);
      for (const name of ['pin', 'PIN', 'user_pin', 'pinCode', 'card-PIN-2', 'pin2', 'p_i_n', 'userPIN']) {
        expect(own.isSensitiveKey(name)).toBe(true);
      }
      for (const name of ['shipping', 'opinion', 'spinner', 'pinned', 'pi', 'ping', 'p']) {
        expect(own.isSensitiveKey(name)).toBe(false);
      }
    });

    it('matches a short name spelled by several words, and a name of exactly five characters anywhere', () => {
      const own = new Redactor(['ab_cde', 'ab_cd', 'otp']);
      expect(own.isSensitiveKey('xabcdex')).toBe(true);
      expect(own.isSensitiveKey('xabcdx')).toBe(false);
      expect(own.isSensitiveKey('x_AbCd')).toBe(true);
      expect(own.isSensitiveKey('my-OTP')).toBe(true);
      expect(own.isSensitiveKey('myotp')).toBe(false);
      expect(own.isSensitiveKey('o_t_p_x')).toBe(true);
      expect(own.isSensitiveKey('ot')).toBe(false);
    });

    it('ignores names without a letter or digit when built directly, and refuses them through the redactor', () => {
      const names = new SecretNames(['-_-', 'pin']);
      expect(names.matches('pin')).toBe(true);
      expect(names.matches('-_-')).toBe(false);
      expect(names.matches('')).toBe(false);
      expect(new SecretNames().matches('password')).toBe(false);
      expect(() => new Redactor().addSensitiveField(' . ')).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
    });

    it('judges a key of many thousand words in bounded work', () => {
      const own = new Redactor(['pin']);
      expect(own.isSensitiveKey(`${'a_'.repeat(50_000)}pin`)).toBe(true);
      expect(own.isSensitiveKey('pi_'.repeat(50_000))).toBe(false);
    });

    it('matches names in other scripts', () => {
      const own = new Redactor(['contraseña']);
      expect(own.isSensitiveKey('nueva_Contraseña')).toBe(true);
      expect(own.isSensitiveKey('nueva_contrasena')).toBe(false);
    });
  });

  describe('compactName and nameWords', () => {
    it('compacts case, separators, spacing, width and invisible characters away', () => {
      expect(compactName('X-Api_Key v2')).toBe('xapikeyv2');
      expect(compactName('\uFF21\u200Bb')).toBe('ab');
      expect(compactName('Ñandú')).toBe('ñandú');
    });

    it('splits at separators, camelCase humps, acronyms and digits', () => {
      expect(nameWords('xApiKey')).toEqual(['x', 'api', 'key']);
      expect(nameWords('APIKey')).toEqual(['api', 'key']);
      expect(nameWords('db2pwd')).toEqual(['db', '2', 'pwd']);
      expect(nameWords('oauth2Token')).toEqual(['oauth', '2', 'token']);
      expect(nameWords('__a--b..c  d')).toEqual(['a', 'b', 'c', 'd']);
      expect(nameWords('ÉtéPWD')).toEqual(['été', 'pwd']);
    });
  });

  describe('DEFAULT_SENSITIVE_FIELDS', () => {
    it('is frozen', () => {
      expect(Object.isFrozen(DEFAULT_SENSITIVE_FIELDS)).toBe(true);
    });
  });
});
