import { EventDispatcher } from '@milpa/events';
import {
  ToolContext,
  ToolEvents,
  ToolResult,
  Type,
  defineTool,
  type EventDispatcher as EventDispatcherContract,
  type ToolExecutedEvent,
  type ToolExecutingEvent,
  type ToolFailedEvent,
} from '@milpa/core';
import { describe, expect, it } from 'vitest';
import { RecordingLogger } from '../../../test/support/recording-logger.js';
import { REDACTED } from '../../audit/redactor.js';
import { ToolRegistry } from '../../registry/tool-registry.js';

const PASSWORD = 'pw-events-71c';
const NESTED = 'nested-events-39d';
const input = Type.Object({
  user: Type.String(),
  password: Type.String(),
  note: Type.String(),
  accounts: Type.Array(Type.Object({ password: Type.String() })),
});
const args = () => ({ user: 'ada', password: PASSWORD, note: `is ${PASSWORD}`, accounts: [{ password: NESTED }] });

function setup(dispatcher: EventDispatcherContract = new EventDispatcher({ logger: new RecordingLogger() })) {
  const logger = new RecordingLogger();
  const seen: { name: string; event: unknown }[] = [];
  dispatcher.subscribe('tool.*', (name, payload) => {
    seen.push({ name, event: payload['event'] });
  });
  const registry = new ToolRegistry({ logger, dispatcher, defaultContext: () => ToolContext.cli() });
  registry.register(
    defineTool({
      name: 'login',
      description: 'Logs in',
      input,
      handler: (given) => {
        throw new TypeError(`login failed for ${given.accounts[0]?.password} (${given.password})`, { cause: given });
      },
    }),
  );
  registry.register(
    defineTool({
      name: 'check',
      description: 'Checks credentials',
      input,
      handler: (given) => ToolResult.failure('FORBIDDEN', `wrong password ${given.password}`),
    }),
  );
  return { registry, logger, seen };
}

const eventOf = <T>(seen: { name: string; event: unknown }[], name: string) => seen.find((entry) => entry.name === name)?.event as T;

describe('eventsStage', () => {
  describe('run', () => {
    it('dispatches tool.failed with redacted, frozen arguments and a scrubbed copy of an error that quotes a nested secret', async () => {
      const { registry, logger, seen } = setup();
      await registry.call('login', args());
      const failed = eventOf<ToolFailedEvent>(seen, ToolEvents.FAILED);
      expect(failed.args).toEqual({ user: 'ada', password: REDACTED, note: `is ${REDACTED}`, accounts: [{ password: REDACTED }] });
      expect(Object.isFrozen(failed.args)).toBe(true);
      expect(Object.isFrozen(failed.args['accounts'])).toBe(true);
      const error = failed.error as Error;
      expect(error.name).toBe('TypeError');
      expect(error.message).toBe(`login failed for ${REDACTED} (${REDACTED})`);
      expect(JSON.stringify([error.stack, 'cause' in error])).not.toMatch(/pw-events|nested-events|true/);
      // The registry's own audit still records the call, from the arguments, scrubbed.
      const record = logger.auditRecords().find((entry) => entry['outcome'] === 'exception');
      expect(record?.['args']).toEqual(failed.args);
      expect(record?.['reason']).toContain(REDACTED);
      expect(logger.dump()).not.toMatch(/pw-events|nested-events/);
    });

    it('keeps the real, frozen arguments in tool.executing only', async () => {
      const { registry, seen } = setup();
      await registry.call('login', args());
      const executing = eventOf<ToolExecutingEvent>(seen, ToolEvents.EXECUTING);
      expect(executing.args).toEqual(args());
      expect(Object.isFrozen(executing.args)).toBe(true);
      expect(eventOf<ToolFailedEvent>(seen, ToolEvents.FAILED).args).not.toEqual(args());
    });

    it(
      'dispatches tool.executed with redacted arguments and an ' + "error result's text scrubbed; the caller's result is unchanged",
      async () => {
        const { registry, seen } = setup();
        const result = await registry.call('check', args());
        const executed = eventOf<ToolExecutedEvent>(seen, ToolEvents.EXECUTED);
        expect(executed.args['password']).toBe(REDACTED);
        expect(executed.result.error).toBe(`wrong password ${REDACTED}`);
        expect(executed.result.meta).toBe(result.meta);
        expect(executed.result.outcome).toBe(result.outcome);
        expect(result.error).toBe(`wrong password ${PASSWORD}`);
      },
    );

    it('scrubs the log line of a dispatcher that fails while telling listeners', async () => {
      const failing: EventDispatcherContract = {
        subscribe: () => () => undefined,
        hasSubscribers: () => true,
        getSubscribers: () => [() => undefined],
        dispatch: (name: string) => {
          if (name === ToolEvents.FAILED) throw new Error(`sink rejected ${PASSWORD} and ${NESTED}`);
        },
      } as unknown as EventDispatcherContract;
      const { registry, logger } = setup(failing);
      await registry.call('login', args());
      const line = logger.matching('tool.failed listener failed')[0];
      expect(line?.message).toBe(`[ToolRegistry] tool.failed listener failed: sink rejected ${REDACTED} and ${REDACTED}`);
      expect(logger.dump()).not.toMatch(/pw-events|nested-events/);
    });
  });
});
