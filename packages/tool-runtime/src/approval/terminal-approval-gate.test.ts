import { PassThrough } from 'node:stream';
import { ToolContext, Type, defineTool } from '@milpa/core';
import { describe, expect, it, vi } from 'vitest';
import { ToolRegistry } from '../registry/tool-registry.js';
import { terminalApprovalGate } from './terminal-approval-gate.js';

function terminal(isTTY: boolean) {
  const input = Object.assign(new PassThrough({ encoding: 'utf8' }), { isTTY });
  const output = new PassThrough({ encoding: 'utf8' });
  const written: string[] = [];
  output.on('data', (chunk: string) => written.push(chunk));
  return { input, output, written };
}

function registryWith(gate: ReturnType<typeof terminalApprovalGate>) {
  const handler = vi.fn((args: { id: string }) => ({ deleted: args.id }));
  const registry = new ToolRegistry({ approvalGate: gate });
  registry.register(
    defineTool({
      name: 'delete_note',
      description: 'Delete a note',
      input: Type.Object({ id: Type.String(), api_key: Type.Optional(Type.String()) }),
      mutating: true,
      handler,
    }),
  );
  return { registry, handler };
}

const operator = () => ToolContext.cli('req-term');

describe('terminalApprovalGate', () => {
  it('asks with the tool and redacted arguments and runs the call on y', async () => {
    const { input, output, written } = terminal(true);
    const { registry, handler } = registryWith(terminalApprovalGate({ input, output }));
    input.write('y\n');
    const result = await registry.call('delete_note', { id: 'n1', api_key: 'sk-live-123' }, operator());
    expect(result.success).toBe(true);
    expect(handler).toHaveBeenCalledTimes(1);
    const question = written.join('');
    expect(question).toBe('Approve delete_note({"id":"n1","api_key":"***REDACTED***"}) by cli on cli? [y/N] ');
    expect(question).not.toContain('sk-live-123');
  });

  it('shows what argument tidying changed, redacted, before asking', async () => {
    const { input, output, written } = terminal(true);
    const registry = new ToolRegistry({ approvalGate: terminalApprovalGate({ input, output }), tidyArguments: true });
    registry.register(
      defineTool({
        name: 'delete_notes',
        description: 'Delete notes',
        input: Type.Object({
          tag: Type.Optional(Type.String()),
          api_key: Type.Optional(Type.String()),
          limit: Type.Optional(Type.Integer({ maximum: 5 })),
        }),
        mutating: true,
        handler: () => 'ok',
      }),
    );
    input.write('n\n');
    await registry.call('delete_notes', { tag: '*', api_key: '%', limit: 80 }, operator());
    expect(written.join('')).toBe(
      'Approve delete_notes({"limit":5}) [tidied: tag dropped (sent "*"); api_key dropped (sent "***REDACTED***"); limit bounded ' +
        '(sent 80, now 5)] by cli on cli? [y/N] ',
    );
  });

  it.each(['n\n', '\n', 'maybe\n', 'yess\n'])('denies on the answer %j and runs nothing', async (answer) => {
    const { input, output } = terminal(true);
    const { registry, handler } = registryWith(terminalApprovalGate({ input, output }));
    input.write(answer);
    const result = await registry.call('delete_note', { id: 'n1' }, operator());
    expect(result.meta['code']).toBe('APPROVAL_DENIED');
    expect(result.error).toBe("Call to 'delete_note' was not approved: The operator answered no at the terminal.");
    expect(handler).not.toHaveBeenCalled();
  });

  it('accepts YES in any case and surrounding spaces', async () => {
    const { input, output } = terminal(true);
    const { registry, handler } = registryWith(terminalApprovalGate({ input, output }));
    input.write('  YES \r\n');
    expect((await registry.call('delete_note', { id: 'n1' }, operator())).success).toBe(true);
    expect(handler).toHaveBeenCalledTimes(1);
  });

  it('denies at once without asking when there is no interactive terminal', async () => {
    const { input, output, written } = terminal(false);
    const { registry, handler } = registryWith(terminalApprovalGate({ input, output }));
    input.write('y\n');
    const result = await registry.call('delete_note', { id: 'n1' }, operator());
    expect(result.error).toBe(
      "Call to 'delete_note' was not approved: There is no interactive terminal to ask for approval, so the call is denied.",
    );
    expect(handler).not.toHaveBeenCalled();
    expect(written).toEqual([]);
  });

  it('denies when the terminal closes before an answer', async () => {
    const { input, output } = terminal(true);
    const { registry, handler } = registryWith(terminalApprovalGate({ input, output }));
    input.end();
    const result = await registry.call('delete_note', { id: 'n1' }, operator());
    expect(result.error).toBe("Call to 'delete_note' was not approved: The terminal closed before the operator answered.");
    expect(handler).not.toHaveBeenCalled();
  });

  it('asks one question at a time, each answered by its own line', async () => {
    const { input, output, written } = terminal(true);
    const { registry, handler } = registryWith(terminalApprovalGate({ input, output }));
    input.write('n\ny\n');
    const [first, second] = await Promise.all([
      registry.call('delete_note', { id: 'first' }, operator()),
      registry.call('delete_note', { id: 'second' }, operator()),
    ]);
    expect(first?.meta['code']).toBe('APPROVAL_DENIED');
    expect(second?.success).toBe(true);
    expect(handler.mock.calls.map(([args]) => args.id)).toEqual(['second']);
    expect(written.join('')).toMatch(/first.*second/s);
  });

  it('denies and stops listening when the caller aborts while the question is open', async () => {
    const { input, output } = terminal(true);
    const { registry, handler } = registryWith(terminalApprovalGate({ input, output }));
    const controller = new AbortController();
    const pending = registry.call('delete_note', { id: 'n1' }, operator(), { signal: controller.signal });
    await vi.waitFor(() => expect(input.listenerCount('data')).toBe(1));
    controller.abort();
    const result = await pending;
    expect(result.meta['code']).toBe('APPROVAL_DENIED');
    expect(handler).not.toHaveBeenCalled();
    expect(input.listenerCount('data')).toBe(0);
  });
});
