import { ToolContext, Type, defineTool, type ConfirmationStore } from '@milpa/core';
import { ConfirmationTokenStore } from '@milpa/tool-runtime';
import { ElicitRequestSchema, type ElicitRequest, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { connectInMemory } from '../../test/support/connect-in-memory.js';
import { createNotesRegistry } from '../../test/support/notes-registry.js';
import { toolError } from '../../test/support/tool-error.js';
import type { McpServerOptions } from './mcp-server-options.js';

const member = ({ requestId }: { requestId: string }) => ToolContext.mcp(requestId, 'user:1', ['notes:read', 'notes:write']);
const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((close) => close()));
});

async function setUp(answer: ((request: ElicitRequest) => ElicitResult | Promise<ElicitResult>) | null, options: McpServerOptions = {}) {
  const { registry, recorder } = createNotesRegistry();
  const { client, close } = await connectInMemory(registry, { context: member, ...options }, answer === null ? {} : { elicitation: {} });
  cleanups.push(close);
  const asked: ElicitRequest[] = [];
  if (answer !== null) {
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request);
      return answer(request);
    });
  }
  return { registry, recorder, client, asked };
}

describe('ToolCallHandler', () => {
  describe('confirmation by elicitation', () => {
    it('asks the person and runs the call once within the same tools/call when they accept', async () => {
      const { client, recorder, asked } = await setUp(() => ({ action: 'accept', content: {} }));
      const result = await client.callTool({ name: 'delete_note', arguments: { id: 7 } });
      expect(recorder.deleted).toEqual([7]);
      expect(result).toEqual({
        content: [{ type: 'text', text: 'Operation completed successfully.\n\n- Deleted: 7' }],
        structuredContent: { deleted: 7 },
      });
      expect(asked).toHaveLength(1);
      expect(asked[0]?.params).toEqual({
        mode: 'form',
        message: "'delete_note' needs your confirmation before it runs: delete_note(id=7). Accept to run it, decline to cancel.",
        requestedSchema: { type: 'object', properties: {} },
      });
    });

    it('runs nothing and returns CONFIRMATION_DECLINED when the person declines', async () => {
      const { client, recorder } = await setUp(() => ({ action: 'decline' }));
      const result = await client.callTool({ name: 'delete_note', arguments: { id: 7 } });
      expect(recorder.deleted).toEqual([]);
      expect(result).toEqual(
        toolError("The user declined the confirmation of delete_note(id=7); 'delete_note' was not run.", {
          code: 'CONFIRMATION_DECLINED',
          action_summary: 'delete_note(id=7)',
        }),
      );
    });

    it('runs nothing when the person cancels', async () => {
      const { client, recorder } = await setUp(() => ({ action: 'cancel' }));
      const result = await client.callTool({ name: 'delete_note', arguments: { id: 7 } });
      expect(recorder.deleted).toEqual([]);
      expect(result.content).toEqual([
        { type: 'text', text: "The user cancelled the confirmation of delete_note(id=7); 'delete_note' was not run." },
      ]);
    });

    it('revokes the token of a declined confirmation so a later replay cannot redeem it', async () => {
      const minted: string[] = [];
      const store = new ConfirmationTokenStore();
      const spy: ConfirmationStore = {
        create: async (...args) => {
          const token = await store.create(...args);
          minted.push(token.token);
          return token;
        },
        consume: (...args) => store.consume(...args),
        isValid: (...args) => store.isValid(...args),
      };
      const { registry, recorder } = createNotesRegistry({ confirmationStore: spy });
      const { client, close } = await connectInMemory(registry, { context: member }, { elicitation: {} });
      cleanups.push(close);
      client.setRequestHandler(ElicitRequestSchema, () => ({ action: 'decline' }));
      await client.callTool({ name: 'delete_note', arguments: { id: 7 } });
      expect(minted).toHaveLength(1);
      const replay = await registry.call('delete_note', { id: 7 }, ToolContext.mcp('r-2', 'user:1', ['notes:write']), {
        confirmToken: minted[0],
      });
      expect(replay.error).toBe('Invalid or expired confirmation token');
      expect(recorder.deleted).toEqual([]);
    });

    it('falls back to the token flow when the elicitation request fails', async () => {
      const { client, recorder } = await setUp(() => {
        throw new Error('no UI available');
      });
      const result = await client.callTool({ name: 'delete_note', arguments: { id: 7 } });
      expect(recorder.deleted).toEqual([]);
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toMatchObject({ code: 'CONFIRMATION_REQUIRED', action_summary: 'delete_note(id=7)' });
    });

    it('does not ask when the tool needs no confirmation', async () => {
      const { client, asked } = await setUp(() => ({ action: 'decline' }));
      await client.callTool({ name: 'list_notes', arguments: {} });
      expect(asked).toEqual([]);
    });
  });

  describe('confirmation by token', () => {
    it('returns the two-call token flow with replay instructions when the client cannot elicit', async () => {
      const { client, recorder } = await setUp(null);
      const first = await client.callTool({ name: 'delete_note', arguments: { id: 9 } });
      expect(recorder.deleted).toEqual([]);
      expect(first.isError).toBe(true);
      const structured = first.structuredContent as Record<string, string>;
      expect(structured).toEqual({
        code: 'CONFIRMATION_REQUIRED',
        confirm_token: expect.stringMatching(/^[0-9a-f]{32}$/),
        action_summary: 'delete_note(id=9)',
        expires_at: expect.any(String),
      });
      expect(first.content).toEqual([
        {
          type: 'text',
          text:
            `Confirmation required: delete_note(id=9). Nothing has run yet. To proceed, call 'delete_note' again with the same ` +
            `arguments plus "confirm_token": "${structured['confirm_token']}". ` +
            `The token works once. It expires at ${structured['expires_at']}.`,
        },
      ]);

      const second = await client.callTool({ name: 'delete_note', arguments: { id: 9, confirm_token: structured['confirm_token'] } });
      expect(second.structuredContent).toEqual({ deleted: 9 });
      expect(recorder.deleted).toEqual([9]);

      const third = await client.callTool({ name: 'delete_note', arguments: { id: 9, confirm_token: structured['confirm_token'] } });
      expect(third).toMatchObject({ isError: true, structuredContent: { code: 'VALIDATION_ERROR' } });
      expect(third.content).toEqual([{ type: 'text', text: 'Invalid or expired confirmation token' }]);
      expect(recorder.deleted).toEqual([9]);
    });

    it('keeps the token flow of a tool with an outputSchema out of structuredContent, so SDK clients accept it', async () => {
      const { registry } = createNotesRegistry();
      registry.register(
        defineTool({
          name: 'archive',
          description: 'Archive everything',
          requiresConfirmation: true,
          outputSchema: Type.Object({ archived: Type.Integer() }),
          handler: () => ({ archived: 12 }),
        }),
      );
      const { client, close } = await connectInMemory(registry, { context: member });
      cleanups.push(close);
      await client.listTools();
      const first = await client.callTool({ name: 'archive', arguments: {} });
      expect(first.structuredContent).toBeUndefined();
      const details = (first._meta as Record<string, { code: string; confirm_token: string }>)['lat.milpa/error'];
      expect(details?.code).toBe('CONFIRMATION_REQUIRED');
      const second = await client.callTool({ name: 'archive', arguments: { confirm_token: details?.confirm_token } });
      expect(second.structuredContent).toEqual({ archived: 12 });
    });

    it("uses the token flow even with an eliciting client when confirmation is 'token'", async () => {
      const { client, asked, recorder } = await setUp(() => ({ action: 'accept', content: {} }), { confirmation: 'token' });
      const result = await client.callTool({ name: 'delete_note', arguments: { id: 4 } });
      expect(asked).toEqual([]);
      expect(recorder.deleted).toEqual([]);
      expect(result.structuredContent).toMatchObject({ code: 'CONFIRMATION_REQUIRED' });
    });
  });
});
