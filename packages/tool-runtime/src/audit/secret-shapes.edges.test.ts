import { describe, expect, it } from 'vitest';
import { REDACTED, Redactor } from './redactor.js';

// The edges of each shape: the shortest body that counts and the one just shorter, every prefix
// variant, and every character that starts or stops a match.

const redactor = new Redactor();
const R = REDACTED;
const scrub = (text: string): string => redactor.scrub(text, []);
const body = (length: number): string => 'aB3dE6gH9jK2mN5pQ8sT1vW4yZ7'.repeat(8).slice(0, length);

describe('Redactor shape edges', () => {
  describe('lengths', () => {
    it.each([
      ['ghp_', 20],
      ['gho_', 20],
      ['ghu_', 20],
      ['ghs_', 20],
      ['ghr_', 20],
      ['github_pat_', 20],
      ['sk-proj-', 20],
      ['sk-svcacct-', 20],
      ['sk-admin-', 20],
      ['sk-ant-', 20],
      ['sk-', 20],
      ['xoxa-', 10],
      ['xoxb-', 10],
      ['xoxp-', 10],
      ['xoxr-', 10],
      ['xoxs-', 10],
      ['xapp-', 10],
    ])('redacts %s with a body of %i characters and keeps one a character shorter', (prefix, length) => {
      expect(scrub(`${prefix}${body(length)}`)).toBe(R);
      expect(scrub(`${prefix}${body(length - 1)}`)).toBe(`${prefix}${body(length - 1)}`);
    });

    it.each(['AKIA', 'ASIA', 'ABIA', 'ACCA'])('redacts an AWS key id starting %s of exactly 20 characters', (prefix) => {
      expect(scrub(`${prefix}ABCDEFGH23456789`)).toBe(R);
      expect(scrub(`${prefix}ABCDEFGH2345678`)).toBe(`${prefix}ABCDEFGH2345678`);
      expect(scrub(`${prefix}ABCDEFGH23456789a`)).toBe(`${prefix}ABCDEFGH23456789a`);
      expect(scrub(`id ${prefix}ABCDEFGH23456789.`)).toBe(`id ${R}.`);
    });

    it('redacts JWTs with parts of 8 characters, with an empty signature and with five parts, and keeps shorter parts', () => {
      expect(scrub('eyJhbGciOiJ.eyJzdWIi.sig')).toBe(R);
      expect(scrub('eyJhbGciOiJ.eyJzdWIi.')).toBe(R);
      expect(
        scrub(
          'eyJhbGciOiJSU0EtT0FFUCJ9.OKOawDo13gRp2ojaHV7LFpZcgV7T6DVZKTyKOMTYUmKoTCVJRgckCL9kiMT03JGe.48V1_ALb6US04U3b.' +
            '5eym8TW_c8SuK0ltJ3rpYIzOeDQz7TALvtu6UG9oMo4vpzs9tX_EFShS8iB7j6jiSdiwkIr3ajwQzaBtQD_A.XFBoMYUZodetZdvTiFvSkQ end',
        ),
      ).toBe(`${R} end`);
      expect(scrub('eyJhbGciOi.eyJzdWIi.sig')).toBe('eyJhbGciOi.eyJzdWIi.sig');
      expect(scrub('eyJhbGciOiJ.eyJzdWI.sig')).toBe('eyJhbGciOiJ.eyJzdWI.sig');
      expect(scrub('eyJhbGciOiJ.eyJzdWIi')).toBe('eyJhbGciOiJ.eyJzdWIi');
    });

    it('redacts a Bearer credential of 8 characters and keeps one of 7', () => {
      expect(scrub('Bearer abcd1234')).toBe(`Bearer ${R}`);
      expect(scrub('Bearer abc1234')).toBe('Bearer abc1234');
    });
  });

  describe('Bearer and Basic', () => {
    it.each([
      ['a digit', 'abcdefgh1'],
      ['a capital after a small letter', 'abcdefgHij'],
      ['a plus', 'abcdefgh+ij'],
      ['a slash', 'abcdefgh/ij'],
      ['an underscore', 'abcdefgh_ij'],
      ['a tilde', 'abcdefgh~ij'],
      ['padding', 'abcdefghij=='],
    ])('takes a credential that shows %s', (_what, credential) => {
      expect(scrub(`Bearer ${credential} ok`)).toBe(`Bearer ${R} ok`);
    });

    it.each([
      ['BEARER abcd1234', `BEARER ${R}`],
      ['bearer abcd1234', `bearer ${R}`],
      ['BASIC dXNlcjpwYXNz', `BASIC ${R}`],
      ['basic dXNlcjpwYXNz', `basic ${R}`],
      ['Basic  dXNlcjpwYXNz', `Basic  ${R}`],
      ['x.Bearer abcd1234', `x.Bearer ${R}`],
    ])('redacts %j', (text, expected) => {
      expect(scrub(text)).toBe(expected);
    });

    it.each(['NotBearer abcd1234', 'Bearerabcd1234', 'Bearer abcdefgh-ij.kl', 'Bearer ABCDEFGHIJ'])('keeps %j', (text) => {
      expect(scrub(text)).toBe(text);
    });
  });

  describe('URL userinfo', () => {
    it.each([
      'https://example.com/users/@ada',
      'https://example.com?x=a@b',
      'https://example.com#a@b',
      '"https://example.com" and "ada@example.com"',
      "'https://example.com' 'ada@example.com'",
      '<https://example.com> <ada@example.com>',
      'https://example.com\\ ada@example.com',
      '`https://example.com` `ada@example.com`',
      'https://example.com ada@example.com',
      '1http://a:b@host',
    ])('keeps %j, whose @ is not in the authority', (text) => {
      expect(scrub(text)).toBe(text);
    });

    it('redacts the userinfo of a scheme with digits, plus, dot and dash', () => {
      expect(scrub('s3+a.b-c2://k:s@bucket/x')).toBe(`s3+a.b-c2://${R}@bucket/x`);
      expect(scrub('(ftp://u:p@h)')).toBe(`(ftp://${R}@h)`);
    });
  });

  describe('name=value pairs', () => {
    it.each([
      ['token=abc at the start', `token=${R} at the start`],
      ['a,token=abc', `a,token=${R}`],
      ['"token=abc"', `"token=${R}"`],
      ["'token=abc'", `'token=${R}'`],
      ['(token=abc)', `(token=${R}`],
      ['{token=abc}', `{token=${R}`],
      ['[token=abc', `[token=${R}`],
      ['xtoken=abc', `xtoken=${R}`],
      ['a:token=abc', `a:token=${R}`],
      ['a/token=abc', `a/token=${R}`],
      ['a.token=abc', `a.token=${R}`],
      ['a-token=abc', `a-token=${R}`],
      ['a@token=abc', `a@token=${R}`],
      ['tok=abc', 'tok=abc'],
      ['a;token=abc', `a;token=${R}`],
      ['a\ttoken=abc', `a\ttoken=${R}`],
      ['user.password=abc', `user.password=${R}`],
      ['auth[token]=abc', `auth[token]=${R}`],
      ['token=a<b', `token=${R}<b`],
      ['token=a>b', `token=${R}>b`],
      ['token=a\\b', `token=${R}\\b`],
      ['token=a"b', `token=${R}"b`],
      ["token=a'b", `token=${R}'b`],
      ['token="a \\" b" c', `token=${R} c`],
      ["token='a \\' b' c", `token=${R} c`],
      ['next="https://x/cb?token=abc" z', `next="https://x/cb?token=${R}" z`],
      ['next=https://x/cb?token=abc', `next=https://x/cb?token=${R}`],
      ['atoken=abc', `atoken=${R}`],
    ])('scrubs %j', (text, expected) => {
      expect(scrub(text)).toBe(expected);
    });

    it('judges a name by its decoded form, and by its raw form when it does not decode', () => {
      expect(scrub('?%74oken=abc')).toBe(`?%74oken=${R}`);
      expect(scrub('?%E0%A4%A=1&x%ZZkey=abc')).toBe(`?%E0%A4%A=1&x%ZZkey=abc`);
      expect(scrub('?%ZZ_key=abc')).toBe(`?%ZZ_key=${R}`);
    });
  });

  describe('name: value pairs', () => {
    it.each([
      ['token: abc', `token: ${R}`],
      ['token:\tabc', `token:\t${R}`],
      ['token:abc', `token:${R}`],
      ['x "token: abc"', `x "token: ${R}"`],
      ["x 'token: abc'", `x 'token: ${R}'`],
      ['(token: abc)', `(token: ${R}`],
      ['[token: abc', `[token: ${R}`],
      ['a@token: abc', `a@token: ${R}`],
      ['a:token: abc', `a:token: ${R}`],
      ['a,token: abc', `a,token: ${R}`],
      ['a;token: abc', `a;token: ${R}`],
      ['token: a,b', `token: ${R},b`],
      ['token: a;b', `token: ${R};b`],
      ['token: a&b', `token: ${R}&b`],
      ['token: a<b', `token: ${R}<b`],
      ['token: a>b', `token: ${R}>b`],
      ['token: a\\b', `token: ${R}\\b`],
      ["token: a'b", `token: ${R}'b`],
      ['token: a"b', `token: ${R}"b`],
      ['token: a b\r\nnext', `token: ${R}\r\nnext`],
      ['token: "a, b" c', `token: ${R} c`],
      ["token: 'a, b' c", `token: ${R} c`],
      ['user.token: abc', `user.token: ${R}`],
      ['x-token: abc', `x-token: ${R}`],
      ['note: password: abc', `note: password: ${R}`],
      ['token9: abc', `token9: ${R}`],
      ['token://host', 'token://host'],
      ['token: //host', 'token: //host'],
      ['xtoken:', 'xtoken:'],
      ['9token: abc', '9token: abc'],
      ['a.token: abc', `a.token: ${R}`],
    ])('scrubs %j', (text, expected) => {
      expect(scrub(text)).toBe(expected);
    });
  });

  describe('JSON members', () => {
    it.each([
      ['{"token":-1.5e+3}', `{"token":"${R}"}`],
      ['{"token" :\n "a"}', `{"token" :\n "${R}"}`],
      ['{"token": {"v": 1}, "user": "ada"}', '{"token": {"v": 1}, "user": "ada"}'],
      ['{"token": null}', '{"token": null}'],
      ['{"note": "{\\"a\\": 1}", "token": "x"}', `{"note": "{\\"a\\": 1}", "token": "${R}"}`],
      ['{"a\\"token": "x"}', `{"a\\"token": "${R}"}`],
      ['{"a": "x", "b":"y"}', '{"a": "x", "b":"y"}'],
    ])('scrubs %j', (text, expected) => {
      expect(scrub(text)).toBe(expected);
    });

    it('judges long member names', () => {
      const name = `${'x'.repeat(300)}_token`;
      expect(scrub(`{"${name}":"v"}`)).toBe(`{"${name}":"${R}"}`);
    });
  });

  describe('given secrets', () => {
    it('replaces the longest of overlapping secrets first, in any order given', () => {
      expect(redactor.scrub('x abcdef y', ['abc', 'abcdef'])).toBe(`x ${R} y`);
      expect(redactor.scrub('x abcdef y abc', ['abcdef', 'abc'])).toBe(`x ${R} y ${R}`);
      expect(redactor.scrub('x abcdefgh y', ['abc', 'abcdef', 'abcdefgh', 'ab'])).toBe(`x ${R} y`);
    });
  });

  describe('prefilter', () => {
    it.each([
      ['a GitHub token', `ghp_${body(36)}`],
      ['a fine-grained GitHub token', `github_pat_${body(40)}`],
      ['an OpenAI key', `sk-${body(40)}`],
      ['a Slack token', `xoxs-${body(20)}`],
      ['a Slack app token', `xapp-${body(20)}`],
      ['a JWT', `eyJhbGciOiJ.eyJzdWIi.${body(10)}`],
      ['a PEM block', '-----BEGIN PRIVATE KEY-----\nQUJD\n-----END PRIVATE KEY-----'],
      ['an AWS key id', 'ABIAABCDEFGH23456789'],
      ['a Bearer credential', 'Bearer abcd1234'],
      ['a bearer credential', 'bearer abcd1234'],
      ['a BEARER credential', 'BEARER abcd1234'],
      ['a Basic credential', 'Basic dXNlcjpwYXNz'],
      ['a basic credential', 'basic dXNlcjpwYXNz'],
      ['a BASIC credential', 'BASIC dXNlcjpwYXNz'],
    ])('lets %s through alone, with no = or : around it', (_what, text) => {
      expect(scrub(`x ${text} y`)).not.toContain(text);
    });
  });
});
