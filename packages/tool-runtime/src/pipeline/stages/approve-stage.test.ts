import { ApprovalVerdict, ToolContext, Type, defineTool, type ApprovalGate, type ApprovalRequest } from '@milpa/core';
import { EventDispatcher } from '@milpa/events';
import { describe, expect, it } from 'vitest';
import { RecordingLogger } from '../../../test/support/recording-logger.js';
import { REDACTED } from '../../audit/redactor.js';
import { ToolRegistry } from '../../registry/tool-registry.js';

const PASSWORD = 'pw-approve-4c2';
const NESTED = 'nested-approve-8d1';

function setup(answer: (request: ApprovalRequest) => ApprovalVerdict) {
  const logger = new RecordingLogger();
  const dispatcher = new EventDispatcher({ logger });
  const denied: unknown[] = [];
  dispatcher.subscribe('tool.denied', (_name, payload) => void denied.push(payload['event']));
  const requests: ApprovalRequest[] = [];
  const gate: ApprovalGate = {
    check: (request) => {
      requests.push(request);
      return answer(request);
    },
    getResolution: () => ({ status: 'pending' }),
  };
  const registry = new ToolRegistry({ logger, dispatcher, approvalGate: gate, defaultContext: () => ToolContext.cli() });
  registry.register(
    defineTool({
      name: 'rotate',
      description: 'Rotates credentials',
      input: Type.Object({
        user: Type.String(),
        password: Type.String(),
        comment: Type.String(),
        replicas: Type.Array(Type.Object({ host: Type.String(), api_key: Type.String() })),
      }),
      mutating: true,
      handler: () => 'rotated',
    }),
  );
  const args = { user: 'ada', password: PASSWORD, comment: `from ${PASSWORD}`, replicas: [{ host: 'db1', api_key: NESTED }] };
  return { registry, logger, requests, denied, args };
}

const quote = (request: ApprovalRequest) => `${String(request.arguments['password'])} / ${JSON.stringify(request.arguments['replicas'])}`;

describe('approveStage', () => {
  describe('run', () => {
    it('gives the gate a deeply frozen display copy with secrets redacted, even nested in an array or quoted elsewhere', async () => {
      const { registry, requests, args } = setup(() => ApprovalVerdict.suspend());
      await registry.call('rotate', args);
      const shown = requests[0]!.redactedArguments;
      expect(shown).toEqual({
        user: 'ada',
        password: REDACTED,
        comment: `from ${REDACTED}`,
        replicas: [{ host: 'db1', api_key: REDACTED }],
      });
      expect(Object.isFrozen(shown)).toBe(true);
      expect(Object.isFrozen((shown['replicas'] as object[])[0])).toBe(true);
      expect(requests[0]!.arguments).toEqual(args);
    });

    it("scrubs a gate's note that quotes the arguments from the pending message", async () => {
      const { registry, logger, args } = setup((request) => ApprovalVerdict.suspend({ message: `Holding ${quote(request)}.` }));
      const held = await registry.call('rotate', args);
      expect(held.getCode()).toBe('APPROVAL_PENDING');
      expect(held.message).toContain(`Holding ${REDACTED}`);
      expect(JSON.stringify([held.toJSON(), logger.dump()])).not.toMatch(/pw-approve|nested-approve/);
    });

    it("scrubs a gate's denial reason that quotes the arguments from the result, tool.denied and the audit", async () => {
      const { registry, logger, denied, args } = setup((request) => ApprovalVerdict.deny(`No: ${quote(request)}`));
      const refused = await registry.call('rotate', args);
      expect(refused.getCode()).toBe('APPROVAL_DENIED');
      expect(refused.error).toContain(`No: ${REDACTED}`);
      expect(denied).toHaveLength(1);
      expect(JSON.stringify([refused.toJSON(), refused.outcome, denied, logger.dump()])).not.toMatch(/pw-approve|nested-approve/);
    });

    it('scrubs the error log of a gate that throws quoting the arguments', async () => {
      const { registry, logger, args } = setup((request) => {
        throw new Error(`gate crashed on ${quote(request)}`);
      });
      expect((await registry.call('rotate', args)).getCode()).toBe('APPROVAL_DENIED');
      expect(logger.matching('the approval gate failed')[0]?.message).toContain(`gate crashed on ${REDACTED}`);
      expect(logger.dump()).not.toMatch(/pw-approve|nested-approve/);
    });
  });
});
