import { MilpaError, ToolContext, ToolExecutedEvent, ToolFailedEvent, ToolResult, Type, type Logger, type LogLevel } from '@milpa/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RecordingLogger } from '../../test/support/recording-logger.js';
import { REDACTED, Redactor } from './redactor.js';
import { ToolAuditLogger } from './tool-audit-logger.js';

const telegram = new ToolContext({ principal: 'user:789', channel: 'telegram', requestId: 'req-abc', ip: '10.1.2.3' });
const anonymousWeb = new ToolContext({ principal: null, channel: 'web', requestId: 'req-anon' });

function setup(options: ConstructorParameters<typeof ToolAuditLogger>[1] = {}): { logger: RecordingLogger; audit: ToolAuditLogger } {
  const logger = new RecordingLogger();
  return { logger, audit: new ToolAuditLogger(logger, options) };
}

function throwingLogger(): Logger {
  const fail = (): never => {
    throw new Error('logger down');
  };
  return { debug: fail, info: fail, warn: fail, error: fail };
}

describe('ToolAuditLogger', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-08-15T14:07:11.000Z'));
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  describe('constructor', () => {
    it('throws INVALID_ARGUMENT for a logger without warn', () => {
      expect(() => new ToolAuditLogger({ info: vi.fn() } as never)).toThrow(MilpaError);
    });

    it('uses the given redactor', () => {
      const redactor = new Redactor(['pin']);
      const { logger, audit } = setup({ redactor });
      expect(audit.redactor).toBe(redactor);
      audit.log(telegram, 't', { pin: 1, password: 'shown' }, true, null, 1);
      expect(logger.messages()[0]).toContain('"pin":"***REDACTED***","password":"shown"');
    });
  });

  describe('log', () => {
    it('writes the call line at info for a success, with the record as context', () => {
      const { logger, audit } = setup();
      audit.log(telegram, 'test_tool', { name: 'John' }, true, null, 150, 12);
      expect(logger.lines).toHaveLength(1);
      expect(logger.lines[0]?.level).toBe('info');
      expect(logger.lines[0]?.message).toBe('[ToolAudit] req-abc | telegram | test_tool | user:789 | 150ms | OK | args={"name":"John"}');
      expect(logger.lines[0]?.context).toEqual({
        audit: {
          outcome: 'ok',
          code: null,
          tool: 'test_tool',
          request_id: 'req-abc',
          channel: 'telegram',
          principal: 'user:789',
          ip: '10.1.2.3',
          took_ms: 150,
          args: { name: 'John' },
          cache_served: false,
          output_size: 12,
        },
      });
    });

    it('writes a warning with ERROR:{code} for a failure', () => {
      const { logger, audit } = setup();
      audit.log(telegram, 'test_tool', {}, false, 'VALIDATION_ERROR', 3);
      expect(logger.lines[0]?.level).toBe('warn');
      expect(logger.lines[0]?.message).toBe(
        '[ToolAudit] req-abc | telegram | test_tool | user:789 | 3ms | ERROR:VALIDATION_ERROR | args={}',
      );
      expect(logger.auditRecords()[0]).toMatchObject({ outcome: 'error', code: 'VALIDATION_ERROR' });
    });

    it("prints 'anonymous' for a missing principal", () => {
      const { logger, audit } = setup();
      audit.log(anonymousWeb, 't', {}, true, null, 0);
      expect(logger.messages()[0]).toContain(' | web | t | anonymous | 0ms | OK');
    });

    it('rounds took_ms to whole milliseconds', () => {
      const { logger, audit } = setup();
      audit.log(telegram, 't', {}, true, null, 12.6);
      expect(logger.messages()[0]).toContain('| 13ms |');
    });

    it('never prints the ip in the message', () => {
      const { logger, audit } = setup();
      audit.log(telegram, 't', {}, true, null, 1);
      expect(logger.messages()[0]).not.toContain('10.1.2.3');
    });

    it('redacts secrets in the line and the record, by name and by schema', () => {
      const schema = Type.Object({
        username: Type.String(),
        password: Type.String(),
        pin: Type.String({ writeOnly: true }),
        deep: Type.Object({ card: Type.String({ 'x-milpa-secret': true }) }),
      });
      const { logger, audit } = setup({ schemaOf: (name) => (name === 'login' ? schema : null) });
      audit.log(
        telegram,
        'login',
        { username: 'john', password: 'secret123', pin: '4321', deep: { card: '4111-1111', API_KEY: 'ak-9' } },
        true,
        null,
        5,
      );
      const dump = logger.dump();
      expect(dump).toContain('john');
      expect(dump).toContain(REDACTED);
      for (const secret of ['secret123', '4321', '4111-1111', 'ak-9']) expect(dump).not.toContain(secret);
      expect(logger.auditRecords()[0]?.['args']).toEqual({
        username: 'john',
        password: REDACTED,
        pin: REDACTED,
        deep: { card: REDACTED, API_KEY: REDACTED },
      });
    });

    it('drops _ctx from the logged args', () => {
      const { logger, audit } = setup();
      audit.log(telegram, 't', { a: 1, _ctx: telegram }, true, null, 1);
      expect(logger.messages()[0]).toContain('args={"a":1}');
    });

    it('keeps the caller args untouched', () => {
      const { audit } = setup();
      const args = { password: 'x' };
      audit.log(telegram, 't', args, true, null, 1);
      expect(args.password).toBe('x');
    });

    it('logs cyclic args without throwing', () => {
      const { logger, audit } = setup();
      const args: Record<string, unknown> = { a: 1 };
      args['self'] = args;
      audit.log(telegram, 't', args, true, null, 1);
      expect(logger.messages()[0]).toContain('args={"a":1,"self":"[Circular]"}');
    });

    it('escapes control characters so a principal cannot forge a second line', () => {
      const { logger, audit } = setup();
      const forged = new ToolContext({ principal: 'eve\n[ToolAudit] fake | cli | rm | root | 1ms | OK', channel: 'web', requestId: 'r1' });
      audit.log(forged, 't', {}, true, null, 1);
      expect(logger.messages()[0]).not.toContain('\n');
      expect(logger.messages()[0]).toContain('eve\\n[ToolAudit] fake');
      expect(logger.auditRecords()[0]?.['principal']).toBe(forged.principal);
    });

    it('builds nothing when the level is disabled', () => {
      const logger: Logger = {
        debug: vi.fn(),
        info: vi.fn(),
        warn: vi.fn(),
        error: vi.fn(),
        isLevelEnabled: (level: LogLevel) => level === 'error',
      };
      const audit = new ToolAuditLogger(logger);
      const redact = vi.spyOn(audit.redactor, 'redact');
      const collect = vi.spyOn(audit.redactor, 'collectSecrets');
      audit.log(telegram, 't', { password: 'x' }, true, null, 1);
      audit.log(telegram, 't', { password: 'x' }, false, 'E', 1);
      audit.logAuthFailure(telegram, 't', 'no');
      audit.onToolExecuted('tool.executed', { event: new ToolExecutedEvent('t', telegram, { password: 'x' }, ToolResult.success('ok')) });
      audit.onToolFailed('tool.failed', { event: new ToolFailedEvent('t', telegram, { password: 'x' }, new Error('e'), 1) });
      expect(redact).not.toHaveBeenCalled();
      expect(collect).not.toHaveBeenCalled();
      expect(logger.info).not.toHaveBeenCalled();
      expect(logger.warn).not.toHaveBeenCalled();
    });

    it('swallows a throwing logger', () => {
      const audit = new ToolAuditLogger(throwingLogger());
      expect(() => audit.log(telegram, 't', {}, true, null, 1)).not.toThrow();
      expect(() => audit.logAuthFailure(telegram, 't', 'r')).not.toThrow();
      expect(() => audit.logValidationFailure(telegram, 't', ['e'])).not.toThrow();
      expect(() => audit.logRateLimited(telegram, 't', {}, 'r', 1)).not.toThrow();
      expect(() => audit.logTimeout(telegram, 't', 1, 1)).not.toThrow();
      expect(() => audit.logOutcome('vetoed', telegram, 't', {}, 1)).not.toThrow();
      const event = new ToolExecutedEvent('t', telegram, {}, ToolResult.success(1));
      expect(() => audit.onToolExecuted('tool.executed', { event })).not.toThrow();
      expect(() => audit.onToolFailed('tool.failed', { event: new ToolFailedEvent('t', telegram, {}, new Error('x'), 1) })).not.toThrow();
    });

    it('still logs when schemaOf throws', () => {
      const { logger, audit } = setup({
        schemaOf: () => {
          throw new Error('no schema');
        },
      });
      audit.log(telegram, 't', { password: 'x' }, true, null, 1);
      expect(logger.messages()[0]).toContain('"password":"***REDACTED***"');
    });
  });

  describe('logAuthFailure', () => {
    it('writes the exact AUTH_DENIED warning without args', () => {
      const { logger, audit } = setup();
      audit.logAuthFailure(telegram, 'delete_user', "Missing required scope for tool 'delete_user'.", { id: 1 });
      expect(logger.lines[0]?.level).toBe('warn');
      expect(logger.messages()[0]).toBe(
        "[ToolAudit] AUTH_DENIED | req-abc | telegram | delete_user | user:789 | reason=Missing required scope for tool 'delete_user'.",
      );
      expect(logger.auditRecords()[0]).toMatchObject({
        outcome: 'auth_denied',
        code: 'FORBIDDEN',
        reason: "Missing required scope for tool 'delete_user'.",
        args: { id: 1 },
      });
    });

    it("prints 'anonymous' for a missing principal", () => {
      const { logger, audit } = setup();
      audit.logAuthFailure(anonymousWeb, 't', 'no');
      expect(logger.messages()[0]).toBe('[ToolAudit] AUTH_DENIED | req-anon | web | t | anonymous | reason=no');
      expect(logger.auditRecords()[0]?.['args']).toBeNull();
    });

    it("scrubs the call's secret values from the reason", () => {
      const { logger, audit } = setup();
      audit.logAuthFailure(telegram, 't', 'provider failed: bad token tk-SECRET-1', { token: 'tk-SECRET-1' });
      expect(logger.dump()).not.toContain('tk-SECRET-1');
      expect(logger.messages()[0]).toContain(`reason=provider failed: bad token ${REDACTED}`);
    });
  });

  describe('logValidationFailure', () => {
    it('writes the exact VALIDATION_FAILED warning with the errors as JSON and no principal or args', () => {
      const { logger, audit } = setup();
      audit.logValidationFailure(telegram, 'create_user', ['Missing required field: email'], { name: 'Ada' });
      expect(logger.lines[0]?.level).toBe('warn');
      expect(logger.messages()[0]).toBe(
        '[ToolAudit] VALIDATION_FAILED | req-abc | telegram | create_user | errors=["Missing required field: email"]',
      );
      expect(logger.auditRecords()[0]).toMatchObject({
        outcome: 'validation_failed',
        code: 'VALIDATION_ERROR',
        errors: ['Missing required field: email'],
        args: { name: 'Ada' },
      });
    });

    it('scrubs secret values out of the errors', () => {
      const { logger, audit } = setup();
      audit.logValidationFailure(telegram, 't', ['password: hunter2 is too short'], { password: 'hunter2' });
      expect(logger.dump()).not.toContain('hunter2');
    });
  });

  describe('logRateLimited', () => {
    it('writes the call line with ERROR:RATE_LIMITED and the redacted args, and the reason in the record', () => {
      const { logger, audit } = setup();
      audit.logRateLimited(telegram, 'search', { q: 'x', confirm_token: 'abc' }, "Rate limit exceeded for 'telegram:user:789:search'", 4);
      expect(logger.lines[0]?.level).toBe('warn');
      expect(logger.messages()[0]).toBe(
        `[ToolAudit] req-abc | telegram | search | user:789 | 4ms | ERROR:RATE_LIMITED | args={"q":"x","confirm_token":"${REDACTED}"}`,
      );
      expect(logger.auditRecords()[0]).toMatchObject({
        outcome: 'rate_limited',
        code: 'RATE_LIMITED',
        reason: "Rate limit exceeded for 'telegram:user:789:search'",
      });
    });
  });

  describe('logTimeout', () => {
    it('writes the timeout warning with its context map', () => {
      const { logger, audit } = setup();
      audit.logTimeout(telegram, 'slow_tool', 31.23456, 30);
      expect(logger.lines[0]).toEqual({
        level: 'warn',
        message: '[ToolRuntime] Timeout exceeded | req-abc | telegram | slow_tool | execution=31.235s | limit=30s',
        context: {
          tool: 'slow_tool',
          execution_time: 31.235,
          timeout_limit: 30,
          principal: 'user:789',
          channel: 'telegram',
          request_id: 'req-abc',
        },
      });
    });
  });

  describe('logOutcome', () => {
    it.each([
      ['not_found', 'warn', 'NOT_FOUND', 'TOOL_NOT_FOUND'],
      ['plan', 'info', 'PLAN', null],
      ['confirmation_requested', 'info', 'CONFIRMATION_REQUESTED', null],
      ['invalid_token', 'warn', 'INVALID_TOKEN', 'VALIDATION_ERROR'],
      ['vetoed', 'warn', 'VETOED', null],
      ['internal_error', 'error', 'INTERNAL_ERROR', 'INTERNAL_ERROR'],
    ] as const)('writes %s at %s as a %s line with code %s', (outcome, level, label, code) => {
      const { logger, audit } = setup();
      audit.logOutcome(outcome, telegram, 'delete_note', { id: 42, password: 'pw' }, 7);
      expect(logger.lines[0]?.level).toBe(level);
      expect(logger.messages()[0]).toBe(`[ToolAudit] ${label} | req-abc | telegram | delete_note | user:789`);
      expect(logger.auditRecords()[0]).toMatchObject({ outcome, code, took_ms: 7, args: { id: 42, password: REDACTED } });
    });

    it('appends the reason, scrubbed of secrets', () => {
      const { logger, audit } = setup();
      audit.logOutcome('internal_error', anonymousWeb, 't', { api_key: 'K-77' }, 1, 'store failed for K-77');
      expect(logger.messages()[0]).toBe(
        `[ToolAudit] INTERNAL_ERROR | req-anon | web | t | anonymous | reason=store failed for ${REDACTED}`,
      );
      expect(logger.auditRecords()[0]?.['reason']).toBe(`store failed for ${REDACTED}`);
    });

    it('uses an explicit code over the default', () => {
      const { logger, audit } = setup();
      audit.logOutcome('internal_error', telegram, 't', null, 1, undefined, 'TIMEOUT');
      expect(logger.auditRecords()[0]?.['code']).toBe('TIMEOUT');
    });

    it('records garbage args of an unknown tool safely', () => {
      const { logger, audit } = setup();
      audit.logOutcome('not_found', telegram, 'nope', 'garbage', 0);
      expect(logger.auditRecords()[0]?.['args']).toBe('garbage');
    });
  });

  describe('onToolExecuted', () => {
    it('logs an OK line with took_ms from the result meta and the string output size', () => {
      const { logger, audit } = setup();
      const result = ToolResult.success('hello', null, { took_ms: 42 });
      audit.onToolExecuted('tool.executed', { event: new ToolExecutedEvent('greet', telegram, { who: 'Ada' }, result) });
      expect(logger.messages('info')).toEqual(['[ToolAudit] req-abc | telegram | greet | user:789 | 42ms | OK | args={"who":"Ada"}']);
      expect(logger.auditRecords()[0]).toMatchObject({ outcome: 'ok', output_size: 5, cache_served: false, took_ms: 42 });
    });

    it('logs 0 ms when the result has no took_ms, and no output size for non-string data', () => {
      const { logger, audit } = setup();
      audit.onToolExecuted('tool.executed', { event: new ToolExecutedEvent('t', telegram, {}, ToolResult.success({ id: 1 })) });
      expect(logger.messages()[0]).toContain('| 0ms | OK |');
      expect(logger.auditRecords()[0]?.['output_size']).toBeNull();
    });

    it('records a cache hit as cache_served and still logs it', () => {
      const { logger, audit } = setup();
      const event = new ToolExecutedEvent('get_report', telegram, {}, ToolResult.success({ id: 42, source: 'cache' }), true);
      audit.onToolExecuted('tool.executed', { event });
      expect(logger.messages()[0]).toContain('| OK |');
      expect(logger.auditRecords()[0]?.['cache_served']).toBe(true);
    });

    it('logs a tool-returned error with meta.code, else the error text, else ERROR', () => {
      const { logger, audit } = setup();
      const cases = [
        ToolResult.error('No such note', null, { code: 'NOT_FOUND', took_ms: 3 }),
        ToolResult.error('Quota exhausted'),
        new ToolResult(false),
      ];
      for (const result of cases) audit.onToolExecuted('tool.executed', { event: new ToolExecutedEvent('t', telegram, {}, result) });
      expect(logger.messages('warn').map((message) => message.split(' | ')[5])).toEqual([
        'ERROR:NOT_FOUND',
        'ERROR:Quota exhausted',
        'ERROR:ERROR',
      ]);
      expect(logger.auditRecords()[0]).toMatchObject({ outcome: 'error', code: 'NOT_FOUND', reason: 'No such note', took_ms: 3 });
    });

    it('scrubs secrets out of a tool-returned error', () => {
      const { logger, audit } = setup();
      const result = ToolResult.error('login refused for password s3cr3t!');
      audit.onToolExecuted('tool.executed', { event: new ToolExecutedEvent('login', telegram, { password: 's3cr3t!' }, result) });
      expect(logger.dump()).not.toContain('s3cr3t!');
    });

    it('also logs the timeout warning when the result exceeded its timeout', () => {
      const { logger, audit } = setup();
      const result = ToolResult.success(1, null, { took_ms: 1500, timeout_exceeded: true, execution_time: 1.5, timeout_limit: 1 });
      audit.onToolExecuted('tool.executed', { event: new ToolExecutedEvent('slow', telegram, {}, result) });
      expect(logger.messages()).toEqual([
        '[ToolAudit] req-abc | telegram | slow | user:789 | 1500ms | OK | args={}',
        '[ToolRuntime] Timeout exceeded | req-abc | telegram | slow | execution=1.500s | limit=1s',
      ]);
    });

    it('ignores a payload without an executed event', () => {
      const { logger, audit } = setup();
      audit.onToolExecuted('tool.executed', {});
      audit.onToolExecuted('tool.executed', { event: 'nope' });
      audit.onToolExecuted('tool.executed', null as never);
      expect(logger.lines).toEqual([]);
    });
  });

  describe('logExecuted', () => {
    it('writes exactly what onToolExecuted writes for the same call', () => {
      const results: [ToolResult, boolean][] = [
        [ToolResult.success('hello', null, { took_ms: 42 }), false],
        [ToolResult.success({ id: 42 }), true],
        [ToolResult.error('login refused for password s3cr3t!', null, { code: 'FORBIDDEN', took_ms: 3 }), false],
        [ToolResult.success(1, null, { took_ms: 1500, timeout_exceeded: true, execution_time: 1.5, timeout_limit: 1 }), false],
      ];
      const args = { who: 'Ada', password: 's3cr3t!' };
      const viaEvent = setup();
      const direct = setup();
      for (const [result, cacheServed] of results) {
        viaEvent.audit.onToolExecuted('tool.executed', { event: new ToolExecutedEvent('greet', telegram, args, result, cacheServed) });
        direct.audit.logExecuted(telegram, 'greet', args, result, cacheServed);
      }
      expect(direct.logger.lines).toHaveLength(5);
      expect(direct.logger.lines).toEqual(viaEvent.logger.lines);
      expect(direct.logger.dump()).not.toContain('s3cr3t!');
    });

    it('never throws when the logger throws', () => {
      const audit = new ToolAuditLogger(throwingLogger());
      expect(() => audit.logExecuted(telegram, 't', {}, ToolResult.success(1), false)).not.toThrow();
    });
  });

  describe('logFailed', () => {
    it('writes exactly what onToolFailed writes for the same call', () => {
      const args = { amount: 5, token: 'tok_live_9' };
      const error = new Error('card declined for tok_live_9');
      const viaEvent = setup();
      const direct = setup();
      viaEvent.audit.onToolFailed('tool.failed', { event: new ToolFailedEvent('charge', telegram, args, error, 17) });
      direct.audit.logFailed(telegram, 'charge', args, error, 17);
      expect(direct.logger.lines).toHaveLength(1);
      expect(direct.logger.lines).toEqual(viaEvent.logger.lines);
      expect(direct.logger.dump()).not.toContain('tok_live_9');
    });

    it('never throws when the logger throws', () => {
      const audit = new ToolAuditLogger(throwingLogger());
      expect(() => audit.logFailed(telegram, 't', {}, new Error('x'), 1)).not.toThrow();
    });
  });

  describe('onToolFailed', () => {
    it('logs ERROR:EXCEPTION with the event tookMs and the scrubbed error message', () => {
      const { logger, audit } = setup();
      const event = new ToolFailedEvent(
        'charge',
        telegram,
        { amount: 5, token: 'tok_live_9' },
        new Error('card declined for tok_live_9'),
        17,
      );
      audit.onToolFailed('tool.failed', { event });
      expect(logger.lines[0]?.level).toBe('warn');
      expect(logger.messages()[0]).toBe(
        `[ToolAudit] req-abc | telegram | charge | user:789 | 17ms | ERROR:EXCEPTION | args={"amount":5,"token":"${REDACTED}"}`,
      );
      expect(logger.auditRecords()[0]).toMatchObject({ outcome: 'exception', code: 'EXCEPTION', reason: `card declined for ${REDACTED}` });
      expect(logger.dump()).not.toContain('tok_live_9');
    });

    it('describes a thrown non-Error value', () => {
      const { logger, audit } = setup();
      audit.onToolFailed('tool.failed', { event: new ToolFailedEvent('t', telegram, {}, 'plain string', 1) });
      expect(logger.auditRecords()[0]?.['reason']).toBe('plain string');
    });
  });

  describe('addSensitiveField', () => {
    it('redacts the added field and keeps other values visible', () => {
      const { logger, audit } = setup();
      audit.addSensitiveField('credit_card');
      audit.log(telegram, 'pay', { credit_card: '4111', amount: 100 }, true, null, 1);
      expect(logger.messages()[0]).toContain(`args={"credit_card":"${REDACTED}","amount":100}`);
    });
  });

  describe('secrets in the line and the record', () => {
    const SECRET = 'pw-audit-19fe';

    it('scrubs a secret quoted under an ordinary name, or nested in an array, from the args= text and the record', () => {
      const { logger, audit } = setup();
      audit.log(
        telegram,
        'reset',
        { password: SECRET, note: `was ${SECRET}`, history: [{ password: 'old-77q', hint: 'old-77q!' }] },
        true,
        null,
        1,
      );
      const line = logger.lines[0]!;
      expect(line.message).toContain(
        `args={"password":"${REDACTED}","note":"was ${REDACTED}","history":[{"password":"${REDACTED}","hint":"${REDACTED}!"}]}`,
      );
      expect(JSON.stringify(line)).not.toMatch(/pw-audit|old-77q/);
    });

    it("scrubs an outcome's code and reason that quote a secret", () => {
      const { logger, audit } = setup();
      audit.logOutcome('refused', telegram, 'reset', { api_key: SECRET }, 1, `key ${SECRET} revoked`, `E_${SECRET}`);
      expect(JSON.stringify(logger.lines)).not.toContain(SECRET);
      expect(logger.auditRecords()[0]).toMatchObject({ code: `E_${REDACTED}`, reason: `key ${REDACTED} revoked` });
    });

    it('scrubs validation messages and the record of a writeOnly field quoted elsewhere', () => {
      const schema = Type.Object({ recovery: Type.String({ writeOnly: true }), note: Type.String() });
      const { logger, audit } = setup({ schemaOf: () => schema });
      audit.logValidationFailure(telegram, 'reset', [`note: must not repeat ${SECRET}`], { recovery: SECRET, note: SECRET });
      expect(JSON.stringify(logger.lines)).not.toContain(SECRET);
      expect(logger.auditRecords()[0]).toMatchObject({ args: { recovery: REDACTED, note: REDACTED } });
    });
  });
});
