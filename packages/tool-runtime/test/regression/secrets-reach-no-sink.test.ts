import { Writable } from 'node:stream';
import {
  ApprovalVerdict,
  ToolContext,
  ToolEvents,
  ToolResult,
  Type,
  defineTool,
  type ApprovalGate,
  type ApprovalRequest,
  type ConfirmationRequiredOutcome,
} from '@milpa/core';
import { EventDispatcher } from '@milpa/events';
import { metrics, trace } from '@opentelemetry/api';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { InMemoryTelemetry } from '../support/in-memory-telemetry.js';
import { ToolRegistry } from '../../src/registry/tool-registry.js';

// Every place a call's arguments, or text derived from them, leave the pipeline is wired here at
// once and captured as text: audit lines and records (pino), every other log line (the same
// pino), spans and their events, metric points, every event listener, the confirmation result, what
// the approval gate stores for display, the caller's results. Only `tool.executing` may carry the
// secrets (its listeners need the real arguments); nothing else may.
const PASSWORD = 'pw-Zq7hunter2';
const API_KEY = 'ak-9f3b2c71d0';
const BEARER = 'Bearer tok-77e1c0ffee';
const WRITE_ONLY = 'wo-4455-recovery';
const NESTED = 'nested-pw-81x';
// Secrets under names that only mean "secret" (case, separators, longer names), in headers, in a URL,
// in writeOnly array items, and by shape alone under an ordinary name.
const VARIANTS: Record<string, string> = {
  db_password: 'v-dbpw-6161',
  new_password: 'v-newpw-6262',
  github_token: 'v-ghtok-6363',
  sessionToken: 'v-sess-6464',
  aws_secret_access_key: 'v-aws-6565',
  passphrase: 'v-phrase-6666',
  private_token: 'v-priv-6767',
};
const HEADER_KEY = 'v-xapikey-6868';
const HEADER_TOKEN = 'v-privtok-6969';
const URL_TOKEN = 'v-urltok-7070';
const ITEM_CODE = 'v-item-7171';
const GITHUB_SHAPED = `ghp_${'A1b2C3d4E5'.repeat(3)}123456`;
const SECRETS = [
  PASSWORD,
  API_KEY,
  BEARER,
  WRITE_ONLY,
  NESTED,
  ...Object.values(VARIANTS),
  HEADER_KEY,
  HEADER_TOKEN,
  URL_TOKEN,
  ITEM_CODE,
  GITHUB_SHAPED,
];

const input = Type.Object(
  {
    user: Type.String(),
    password: Type.String(),
    api_key: Type.String(),
    authorization: Type.String(),
    recovery: Type.String({ writeOnly: true }),
    note: Type.String(),
    accounts: Type.Array(Type.Object({ name: Type.String(), password: Type.String() })),
    extra: Type.Optional(Type.Object({}, { additionalProperties: false })),
    ...Object.fromEntries(Object.keys(VARIANTS).map((name) => [name, Type.String()])),
    headers: Type.Record(Type.String(), Type.String()),
    callback: Type.String(),
    codes: Type.Array(Type.String({ writeOnly: true })),
    comment: Type.String(),
  },
  { additionalProperties: false },
);

/** Arguments holding every secret: by name, by `writeOnly`, nested in an array, and repeated under an ordinary name. */
function secretArgs(): Record<string, unknown> {
  return {
    user: 'ada',
    password: PASSWORD,
    api_key: API_KEY,
    authorization: BEARER,
    recovery: WRITE_ONLY,
    note: `remember ${PASSWORD} and ${WRITE_ONLY}`,
    accounts: [{ name: 'ops', password: NESTED }],
    ...VARIANTS,
    headers: { 'X-Api-Key': HEADER_KEY, 'Private-Token': HEADER_TOKEN, Accept: 'application/json' },
    callback: `https://hooks.example.com/done?access_token=${URL_TOKEN}&page=2`,
    codes: [ITEM_CODE],
    comment: `use ${GITHUB_SHAPED} for the push`,
  };
}

/** Everything quoted back: what a careless handler, gate or guard would write. */
function quote(args: Record<string, unknown>): string {
  const accounts = args['accounts'] as { password: string }[];
  const headers = (args['headers'] ?? {}) as Record<string, string>;
  const variants = Object.keys(VARIANTS).map((name) => String(args[name]));
  return [
    args['password'],
    args['api_key'],
    args['authorization'],
    args['recovery'],
    accounts[0]?.password,
    ...variants,
    headers['X-Api-Key'],
    headers['Private-Token'],
    args['callback'],
    (args['codes'] as string[] | undefined)?.[0],
    args['comment'],
  ]
    .map(String)
    .join(' ');
}

/** JSON of anything captured, Errors with their name, message, stack, cause and own fields. */
function dump(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) => {
    if (inner instanceof Error) {
      const own = Object.fromEntries(Object.entries(inner));
      return { ...own, name: inner.name, message: inner.message, stack: inner.stack, cause: (inner as { cause?: unknown }).cause };
    }
    if (typeof inner === 'bigint') return inner.toString();
    return inner;
  });
}

function setup() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  const logger = pino({ level: 'debug' }, stream);
  const dispatcherLines: string[] = [];
  const dispatcher = new EventDispatcher({
    logger: { error: (context: unknown, message: string) => void dispatcherLines.push(dump({ context, message })) } as never,
  });
  const executing: string[] = [];
  const events: string[] = [];
  dispatcher.subscribe('*', () => undefined);
  dispatcher.subscribe('tool.*', (name, payload) => {
    if (name === ToolEvents.EXECUTING) executing.push(dump(payload['event']));
    else events.push(dump({ name, event: payload['event'] }));
  });
  const shown: ApprovalRequest['redactedArguments'][] = [];
  const gate: ApprovalGate = {
    check(request) {
      // What a person is shown: a console renders the gate's copy of this.
      shown.push(request.redactedArguments);
      if (request.toolName === 'deny_account') return ApprovalVerdict.deny(`not with ${quote(request.arguments)}`);
      return ApprovalVerdict.suspend({ message: `waiting; asked about ${quote(request.arguments)}` });
    },
    getResolution: () => ({ status: 'pending' }),
  };
  const telemetry = new InMemoryTelemetry();
  const registry = new ToolRegistry({
    logger,
    dispatcher,
    telemetry: telemetry.options,
    exposeErrorMessages: true,
    approvalGates: { hold_account: gate, deny_account: gate },
    stages: [
      {
        before: 'rate_limit',
        stage: {
          name: 'account_guard',
          check: ({ tool, args }) =>
            tool.name === 'guarded_account' ? ToolResult.failure('FORBIDDEN', `guard refused ${quote(args)}`) : undefined,
        },
      },
    ],
  });
  const define = (name: string, handler: (args: Record<string, unknown>) => unknown, extra: Record<string, unknown> = {}) =>
    registry.register(defineTool({ name, description: `${name} tool`, input, handler: handler as never, ...extra }));
  define('confirm_account', () => ({ updated: true }), { requiresConfirmation: true });
  define('hold_account', () => ({ updated: true }), { mutating: true });
  define('deny_account', () => ({ updated: true }), { mutating: true });
  define('guarded_account', () => ({ updated: true }));
  define('fail_account', (args) => {
    throw new Error(`login failed: ${quote(args)}`, { cause: args });
  });
  define('error_account', (args) => ToolResult.failure('BAD_CREDENTIALS' as never, `rejected ${quote(args)}`));
  define('answer_account', () => 'done');
  dispatcher.subscribe(ToolEvents.EXECUTED, (_name, payload) => {
    // A listener that fails quoting what it was given: it was given redacted arguments only.
    const event = payload['event'] as { name: string; args: Record<string, unknown> };
    if (event.name === 'answer_account') throw new Error(`listener choked on ${quote(event.args)}`);
  });
  return { registry, lines, dispatcherLines, executing, events, shown, telemetry };
}

describe('ToolRegistry', () => {
  let telemetry: InMemoryTelemetry | null = null;
  afterEach(async () => {
    trace.disable();
    metrics.disable();
    await telemetry?.shutdown();
  });

  describe('call (every sink at once: secrets reach none but tool.executing)', () => {
    it('keeps secrets by name, name variant, header, URL, writeOnly item and shape out of every captured output', async () => {
      const sinks = setup();
      telemetry = sinks.telemetry;
      const { registry } = sinks;
      const context = () => ToolContext.web('user:ada', ['*']);
      const results: ToolResult[] = [];
      const call = async (name: string, args: Record<string, unknown>, options?: { confirmToken?: string }) => {
        const result = await registry.call(name, args, context(), options);
        results.push(result);
        return result;
      };

      const confirmation = await call('confirm_account', secretArgs());
      const outcome = confirmation.outcome as ConfirmationRequiredOutcome;
      expect(outcome.kind).toBe('confirmation_required');
      expect((await call('confirm_account', { ...secretArgs(), user: 'ignored' }, { confirmToken: outcome.token })).success).toBe(true);
      expect((await call('hold_account', secretArgs())).getCode()).toBe('APPROVAL_PENDING');
      expect((await call('deny_account', secretArgs())).getCode()).toBe('APPROVAL_DENIED');
      expect((await call('guarded_account', secretArgs())).getCode()).toBe('FORBIDDEN');
      expect((await call('fail_account', secretArgs())).getCode()).toBe('INTERNAL_ERROR');
      // A tool's own answer reaches its caller as the tool wrote it (the runtime does not rewrite
      // results); every copy that leaves for a sink (event, audit, span) is scrubbed.
      const own = await registry.call('error_account', secretArgs(), context());
      expect(own.error).toContain(PASSWORD);
      expect((await call('answer_account', secretArgs())).success).toBe(true);
      const invalid = await call('fail_account', { ...secretArgs(), extra: { [PASSWORD]: 1 } });
      expect(invalid.getCode()).toBe('VALIDATION_ERROR');

      const spans = telemetry.spans().map((span) => ({
        name: span.name,
        attributes: span.attributes,
        status: span.status,
        events: span.events.map((event) => ({ name: event.name, attributes: event.attributes })),
      }));
      const points = [...(await telemetry.points('milpa.tool.calls')), ...(await telemetry.points('milpa.tool.duration'))];
      const captured = {
        logs: sinks.lines,
        dispatcherLogs: sinks.dispatcherLines,
        events: sinks.events,
        spans: dump(spans),
        metrics: dump(points.map((point) => point.attributes)),
        shownToApprovers: dump(sinks.shown),
        results: dump(results.map((result) => ({ json: result.toJSON(), outcome: result.outcome }))),
      };

      // Every sink was reached: the test is only worth something if each one had the chance to leak.
      expect(sinks.lines.some((line) => line.includes('"audit"'))).toBe(true);
      expect(sinks.lines.some((line) => line.includes('threw exception'))).toBe(true);
      expect(sinks.dispatcherLines.some((line) => line.includes('listener choked on ***REDACTED***'))).toBe(true);
      expect(sinks.events.some((event) => event.includes('"tool.executed"'))).toBe(true);
      expect(sinks.events.some((event) => event.includes('"tool.failed"'))).toBe(true);
      expect(sinks.events.some((event) => event.includes('"tool.denied"'))).toBe(true);
      expect(captured.spans).toContain('gen_ai.execute_tool.exception');
      expect(points.length).toBeGreaterThan(0);
      expect(sinks.shown).toHaveLength(2);
      expect(captured.results).toContain('***REDACTED***');
      // Only tool.executing carries the real arguments, which its listeners need.
      expect(sinks.executing.join('\n')).toContain(PASSWORD);

      for (const [sink, text] of Object.entries(captured)) {
        const written = Array.isArray(text) ? text.join('\n') : text;
        for (const secret of SECRETS) expect({ sink, leaked: written.includes(secret) ? secret : null }).toEqual({ sink, leaked: null });
      }
    });
  });
});
