import { describe, expect, it } from 'vitest';
import { REDACTED, Redactor } from './redactor.js';

const redactor = new Redactor();
const R = REDACTED;

// Made-up values in the published formats (none is a real credential).
const GITHUB = {
  ghp: `ghp_${'a1B2c3D4e5'.repeat(3)}abcdef`,
  gho: `gho_${'Z9y8X7w6V5'.repeat(3)}uvwxyz`,
  ghu: `ghu_${'q'.repeat(36)}`,
  ghs: `ghs_${'0'.repeat(36)}`,
  ghr: `ghr_${'Ab1'.repeat(12)}`,
  pat: `github_pat_11ABCDEFG0${'x'.repeat(12)}_${'Y1'.repeat(30)}`,
};
const OPENAI_LEGACY = `sk-${'A1b2C3d4E5f6'.repeat(4)}`;
const OPENAI_PROJECT = `sk-proj-${'Ab_1-cD2'.repeat(12)}`;
const OPENAI_SERVICE = `sk-svcacct-${'Zz9_'.repeat(10)}`;
const ANTHROPIC = `sk-ant-api03-${'aB3-'.repeat(20)}`;
const SLACK_BOT = 'xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx';
const SLACK_USER = 'xoxp-1234567890-1234567890-1234567890-0123456789abcdef0123456789abcdef';
const SLACK_APP = 'xapp-1-A0123456789-1234567890123-abcdef0123456789';
const AWS_KEY_ID = 'AKIAIOSFODNN7EXAMPLE';
const AWS_TEMP_KEY_ID = 'ASIAY34FZKBOKMUTVV7A';
const JWT = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkFkYSJ9.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c';
const PEM = [
  '-----BEGIN RSA PRIVATE KEY-----',
  'MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun',
  'VTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTxK',
  '-----END RSA PRIVATE KEY-----',
].join('\n');

describe('Redactor shapes', () => {
  describe('token formats', () => {
    it.each<readonly [string, string]>([
      ...Object.entries(GITHUB).map(([kind, token]) => [`GitHub ${kind}`, token] as const),
      ['OpenAI legacy key', OPENAI_LEGACY],
      ['OpenAI project key', OPENAI_PROJECT],
      ['OpenAI service account key', OPENAI_SERVICE],
      ['Anthropic key', ANTHROPIC],
      ['Slack bot token', SLACK_BOT],
      ['Slack user token', SLACK_USER],
      ['Slack app token', SLACK_APP],
      ['AWS access key id', AWS_KEY_ID],
      ['AWS temporary access key id', AWS_TEMP_KEY_ID],
      ['JWT', JWT],
    ])('redacts a %s alone, inside prose, after punctuation, in a URL path and in nested arrays', (_kind, token) => {
      expect(redactor.scrub(token, [])).toBe(R);
      expect(redactor.scrub(`deploy failed with ${token}, retrying`, [])).toBe(`deploy failed with ${R}, retrying`);
      expect(redactor.scrub(`(${token})`, [])).toBe(`(${R})`);
      expect(redactor.scrub(`GITHUB_TOKEN_VALUE_${token}`, [])).toBe(`GITHUB_TOKEN_VALUE_${R}`);
      expect(redactor.scrub(`https://api.example.com/hooks/${token}/run`, [])).toBe(`https://api.example.com/hooks/${R}/run`);
      expect(redactor.redact({ note: token, list: [[`x ${token} y`], { deep: [token] }] })).toEqual({
        note: R,
        list: [[`x ${R} y`], { deep: [R] }],
      });
    });

    it('keeps look-alikes that lack the format: short bodies, other prefixes, prefixes inside words', () => {
      for (const text of [
        'ghp_short',
        'ghx_abcdefghijklmnopqrstuvwxyz0123456789',
        'sk-learn-model-selection',
        'task-abcdefghijklmnopqrstuvwxyz012345',
        'xoxo-hugs-and-kisses-forever',
        'xoxb-short',
        'AKIA1234',
        'AKIAIOSFODNN7EXAMPLEXX',
        'eyJhbGciOi.short',
        'disk-ABCDEFGHIJKLMNOPQRSTUVWX',
      ]) {
        expect(redactor.scrub(text, [])).toBe(text);
      }
    });
  });

  describe('Bearer and Basic credentials', () => {
    it.each([
      ['Authorization: Bearer abc123def456', `Authorization: ${R}`],
      ['sent Bearer abc123def456 upstream', `sent Bearer ${R} upstream`],
      ['sent bearer AbCdEfGhIjKl upstream', `sent bearer ${R} upstream`],
      ['BEARER a.b.c-d_e~f+g/h= end', `BEARER ${R} end`],
      ['header Basic dXNlcjpwYXNz', `header Basic ${R}`],
      ['header basic dXNlcjpwYXNzd29yZA==', `header basic ${R}`],
      ['Basic\tQWxhZGRpbjpvcGVuIHNlc2FtZQ==', `Basic\t${R}`],
    ])('redacts the credential of %j and keeps the scheme', (text, expected) => {
      expect(redactor.scrub(text, [])).toBe(expected);
    });

    it.each([
      'Basic authentication is required',
      'a Bearer token is missing',
      'BASIC plan, Bearer',
      'Bearer short1',
      'the Basic well-known scheme',
      'Basic Authentication',
    ])('keeps prose %j', (text) => {
      expect(redactor.scrub(text, [])).toBe(text);
    });
  });

  describe('PEM private keys', () => {
    it('redacts a whole block, any key kind, and keeps the text around it', () => {
      expect(redactor.scrub(`key:\n${PEM}\nused`, [])).toBe(`key:\n${R}\nused`);
      const blocks = ['PGP PRIVATE KEY BLOCK', 'EC PRIVATE KEY', 'PRIVATE KEY', 'ENCRYPTED PRIVATE KEY', 'OPENSSH PRIVATE KEY'].map(
        (kind) => `-----BEGIN ${kind}-----\nQUJD\n-----END ${kind}-----`,
      );
      expect(redactor.scrub(blocks.join(' and '), [])).toBe([R, R, R, R, R].join(' and '));
    });

    it('redacts a block whose END line is missing to the end of the text, and a JSON-escaped block', () => {
      expect(redactor.scrub(`before ${PEM.slice(0, 80)}`, [])).toBe(`before ${R}`);
      expect(redactor.redact({ config: JSON.stringify({ key: PEM }) })).toEqual({ config: `{"key":"${R}"}` });
    });

    it('keeps public keys and certificates', () => {
      const pub = '-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE\n-----END PUBLIC KEY-----';
      expect(redactor.scrub(pub, [])).toBe(pub);
    });
  });

  describe('URLs', () => {
    it.each([
      ['https://ada:s3cret@db.example.com:5432/app', `https://${R}@db.example.com:5432/app`],
      ['postgres://user:p%40ss@10.0.0.1/db?sslmode=require', `postgres://${R}@10.0.0.1/db?sslmode=require`],
      [`https://${GITHUB.ghp}@github.com/org/repo.git`, `https://${R}@github.com/org/repo.git`],
      ['clone git+ssh://git:pw@host/x failed', `clone git+ssh://${R}@host/x failed`],
      ['redis://:onlypass@cache:6379', `redis://${R}@cache:6379`],
    ])('redacts the userinfo of %j and keeps scheme, host and path', (url, expected) => {
      expect(redactor.scrub(url, [])).toBe(expected);
      expect(redactor.redact({ urls: [[url]] })).toEqual({ urls: [[expected]] });
    });

    it.each([
      ['https://x.io/cb?access_token=abc123&state=ok', `https://x.io/cb?access_token=${R}&state=ok`],
      ['https://x.io/?token=t1&api_key=k2&apikey=k3&key=k4', `https://x.io/?token=${R}&api_key=${R}&apikey=${R}&key=${R}`],
      ['https://x.io/?secret=s&password=p&sig=g&signature=h', `https://x.io/?secret=${R}&password=${R}&sig=${R}&signature=${R}`],
      [
        'https://b.s3.amazonaws.com/k?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAEXAMPLE%2F20240101&X-Amz-Signature=abcd1234',
        `https://b.s3.amazonaws.com/k?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=${R}&X-Amz-Signature=${R}`,
      ],
      ['https://x.io/?client_secret=a;session_id=b#frag', `https://x.io/?client_secret=${R};session_id=${R}#frag`],
      ['https://x.io/?X%2DApi%2DKey=a', `https://x.io/?X%2DApi%2DKey=${R}`],
      ['https://x.io/?bad%ZZtoken=a', `https://x.io/?bad%ZZtoken=${R}`],
      ['https://x.io/?page=2&max_tokens=100&keyword=cafe', 'https://x.io/?page=2&max_tokens=100&keyword=cafe'],
      ['https://x.io/?token=&user=ada', 'https://x.io/?token=&user=ada'],
    ])('redacts credential query parameters of %j by the name rule', (url, expected) => {
      expect(redactor.scrub(url, [])).toBe(expected);
    });
  });

  describe('name=value, name: value and JSON members in text', () => {
    it.each([
      ['level=info password=hunter2 user=ada', `level=info password=${R} user=ada`],
      ['db_password="two words" next=1', `db_password=${R} next=1`],
      ["PGPASSWORD='x y' psql", `PGPASSWORD=${R} psql`],
      ['Cookie: theme=dark; session=abc', `Cookie: ${R}; session=${R}`],
      ['X-Api-Key: k-123\nAccept: json', `X-Api-Key: ${R}\nAccept: json`],
      ['Authorization: Token abc', `Authorization: ${R}`],
      ['user: ada, password: hunter2, role: admin', `user: ada, password: ${R}, role: admin`],
      ["{password: 'a, b', user: 1}", `{password: ${R}, user: 1}`],
      ['{"access_token":"ya29.a0","expires_in":3599}', `{"access_token":"${R}","expires_in":3599}`],
      ['{"pin": 1, "password" : 12345}', `{"pin": 1, "password" : "${R}"}`],
      ['{"secret":"a\\"b","ok":"c"}', `{"secret":"${R}","ok":"c"}`],
      ['{"key":"user:42"}', '{"key":"user:42"}'],
      ['at 12:30 https://x.y/z Error: boom', 'at 12:30 https://x.y/z Error: boom'],
      ['max_tokens=100 token_count: 3', 'max_tokens=100 token_count: 3'],
    ])('scrubs %j', (text, expected) => {
      expect(redactor.scrub(text, [])).toBe(expected);
    });

    it('judges names with the host names too', () => {
      const own = new Redactor();
      own.addSensitiveField('iban');
      expect(own.scrub('iban=DE89\niban: DE89\n{"iban":"DE89"}', [])).toBe(`iban=${R}\niban: ${R}\n{"iban":"${R}"}`);
    });
  });

  describe('ordinary values', () => {
    it.each([
      'Ada Lovelace',
      'ada@example.com',
      'mailto:ada@example.com',
      '/home/ada/projects/tokens/list.txt',
      'C:\\Users\\ada\\secret-santa.txt',
      '550e8400-e29b-41d4-a716-446655440000',
      'user_42',
      'The password reset email was sent.',
      'Use a Bearer token or Basic authentication.',
      'https://example.com/path?page=2&sort=asc#top',
      'order #1234: 3 items, total 19.99',
      'a = b',
      '',
    ])('keeps %j as it is', (text) => {
      expect(redactor.scrub(text, [])).toBe(text);
      expect(redactor.redact({ value: text, list: [text] })).toEqual({ value: text, list: [text] });
    });

    it('keeps numbers, booleans and nulls, and scrubs strings at every depth and in every container', () => {
      expect(
        redactor.redact({
          n: 42,
          b: true,
          z: null,
          set: new Set([`t ${AWS_KEY_ID}`]),
          map: new Map([['k', `Bearer ${JWT}`]]),
          error: new Error(`failed for https://a:b@h/`),
        }),
      ).toEqual({
        n: 42,
        b: true,
        z: null,
        set: [`t ${R}`],
        map: { k: `Bearer ${R}` },
        error: { name: 'Error', message: `failed for https://${R}@h/` },
      });
    });
  });

  describe('scrub', () => {
    it('scrubs shapes without any secret given, and after replacing the given secrets', () => {
      expect(redactor.scrub(`token ${GITHUB.ghs} for ada-1`, [])).toBe(`token ${R} for ada-1`);
      expect(redactor.scrub(`token ${GITHUB.ghs} for ada-1`, ['ada-1'])).toBe(`token ${R} for ${R}`);
    });

    it('is stable: scrubbing a scrubbed text changes nothing', () => {
      const once = redactor.scrub(`https://a:b@h/?token=x Bearer abc123def456 ${JWT} password: y`, []);
      expect(redactor.scrub(once, [])).toBe(once);
    });

    it('scrubs a very long text in one pass without running away', () => {
      const text = `${'a=b&'.repeat(20_000)}token=x ${'::'.repeat(20_000)} ${'"k":'.repeat(10_000)}`;
      const scrubbed = redactor.scrub(text, []);
      expect(scrubbed).toContain(`token=${R}`);
      expect(scrubbed).not.toContain('token=x');
    });
  });
});

describe('Redactor shapes: a pair already redacted', () => {
  const redactor = new Redactor();

  it('keeps the punctuation after an already redacted value, and still redacts what follows a marker', () => {
    expect(redactor.scrub(`reset(password=${REDACTED}, id=4)`, [])).toBe(`reset(password=${REDACTED}, id=4)`);
    expect(redactor.scrub(`rotate(password=${REDACTED})`, [])).toBe(`rotate(password=${REDACTED})`);
    expect(redactor.scrub(`{"password": "${REDACTED}"}`, [])).toBe(`{"password": "${REDACTED}"}`);
    expect(redactor.scrub(`password=${REDACTED}tail`, [])).toBe(`password=${REDACTED}`);
    expect(redactor.scrub(`password=${REDACTED},tail`, [])).toBe(`password=${REDACTED}`);
  });
});
