import {
  RateLimitResult,
  ToolContext,
  ToolEvents,
  ToolResult,
  Type,
  defineTool,
  normalizeToolDefinition,
  type RateLimiter,
} from '@milpa/core';
import { EventDispatcher } from '@milpa/events';
import { ToolRegistry } from '@milpa/tool-runtime';
import { ErrorCode, LoggingMessageNotificationSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { connectInMemory } from '../../test/support/connect-in-memory.js';
import { PIXEL_PNG, createNotesRegistry } from '../../test/support/notes-registry.js';
import { toolError } from '../../test/support/tool-error.js';
import { createMcpServer } from './create-mcp-server.js';

const member = ({ requestId }: { requestId: string }) => ToolContext.mcp(requestId, 'user:1', ['notes:read', 'notes:write']);
const cleanups: (() => Promise<void>)[] = [];

async function connect(...args: Parameters<typeof connectInMemory>) {
  const connection = await connectInMemory(...args);
  cleanups.push(connection.close);
  return connection.client;
}

afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((close) => close()));
});

describe('createMcpServer', () => {
  describe('initialize', () => {
    it('reports the configured name, the tools and logging capabilities, and the instructions', async () => {
      const { registry } = createNotesRegistry();
      const client = await connect(registry, { name: 'notes', version: '9.9.9', instructions: 'Use add for sums.' });
      expect(client.getServerVersion()).toEqual({ name: 'notes', version: '9.9.9' });
      expect(client.getServerCapabilities()).toMatchObject({ tools: { listChanged: false }, logging: {} });
      expect(client.getInstructions()).toBe('Use add for sums.');
    });

    it('reports the package name and version by default', async () => {
      const { registry } = createNotesRegistry();
      const client = await connect(registry);
      expect(client.getServerVersion()).toEqual({ name: 'milpa', version: expect.stringMatching(/^\d+\.\d+\.\d+/) });
    });
  });

  describe('tools/list', () => {
    it('lists exactly the tools the caller may call: a reader sees no write tool, an anonymous caller nothing', async () => {
      const { registry } = createNotesRegistry();
      const reader = await connect(registry, { context: ({ requestId }) => ToolContext.mcp(requestId, 'user:2', ['notes:read']) });
      const listed = (await reader.listTools()).tools.map((tool) => tool.name);
      expect(listed).toContain('list_notes');
      expect(listed).not.toContain('create_note');
      expect(listed).not.toContain('delete_note');
      for (const definition of registry.getToolDefinitions()) {
        const callable = definition.scopes.length === 0 || definition.scopes.includes('notes:read');
        expect(listed.includes(definition.name)).toBe(callable);
      }
      const anonymous = await connect(registry, { context: ({ requestId }) => ToolContext.mcp(requestId, null, []) });
      expect((await anonymous.listTools()).tools).toEqual([]);
    });

    it('lists nothing when the context cannot be built (fail-closed)', async () => {
      const { registry } = createNotesRegistry();
      const client = await connect(registry, {
        context: () => {
          throw new Error('no session');
        },
      });
      expect((await client.listTools()).tools).toEqual([]);
    });

    it('builds the listing context with toolName null', async () => {
      const { registry } = createNotesRegistry();
      const seen: (string | null)[] = [];
      const client = await connect(registry, {
        context: (call) => {
          seen.push(call.toolName);
          return member(call);
        },
      });
      await client.listTools();
      expect(seen).toEqual([null]);
    });

    it('lists every tool with its own input schema and derived annotations', async () => {
      const { registry } = createNotesRegistry();
      const client = await connect(registry, { context: member });
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(registry.getToolDefinitions().map((definition) => definition.name));
      const add = tools.find((tool) => tool.name === 'add');
      expect(add).toEqual({
        name: 'add',
        title: 'Add numbers',
        description: 'Add two numbers',
        inputSchema: { type: 'object', required: ['a', 'b'], properties: { a: { type: 'number' }, b: { type: 'number' } } },
        outputSchema: { type: 'object', required: ['sum'], properties: { sum: { type: 'number' } } },
        annotations: { title: 'Add numbers', readOnlyHint: true },
      });
      const remove = tools.find((tool) => tool.name === 'delete_note');
      expect(remove?.annotations).toEqual({ readOnlyHint: false, destructiveHint: true });
      expect(remove?.inputSchema).toMatchObject({ additionalProperties: false });
      expect(remove).not.toHaveProperty('title');
      expect(remove).not.toHaveProperty('outputSchema');
    });

    it('keeps 2020-12 keywords ($schema, $defs, $ref) exactly as declared', async () => {
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli() });
      const inputSchema = {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        $defs: { address: { type: 'object', properties: { city: { type: 'string' } } } },
        properties: { name: { type: 'string' }, address: { $ref: '#/$defs/address' } },
        additionalProperties: false,
      };
      registry.register(normalizeToolDefinition({ name: 'locate', description: 'Locate', inputSchema, handler: () => 'ok' }));
      const client = await connect(registry, { context: member });
      const { tools } = await client.listTools();
      expect(tools[0]?.inputSchema).toEqual(inputSchema);
    });

    it('lists a tool without arguments with an object input schema', async () => {
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli() });
      registry.register(normalizeToolDefinition({ name: 'ping', description: 'Ping', inputSchema: {}, handler: () => 'pong' }));
      const client = await connect(registry, { context: member });
      const { tools } = await client.listTools();
      expect(tools[0]?.inputSchema).toEqual({ type: 'object' });
    });

    it('wraps a non-object output schema as { result } so SDK 1.x clients accept the listing', async () => {
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli() });
      registry.register(
        defineTool({
          name: 'tags',
          description: 'Tags',
          outputSchema: { type: 'array', items: { type: 'string' } },
          handler: () => ['a', 'b'],
        }),
      );
      const client = await connect(registry, { context: member });
      const { tools } = await client.listTools();
      expect(tools[0]?.outputSchema).toEqual({
        type: 'object',
        properties: { result: { type: 'array', items: { type: 'string' } } },
        required: ['result'],
      });
      const result = await client.callTool({ name: 'tags', arguments: {} });
      expect(result.structuredContent).toEqual({ result: ['a', 'b'] });
      expect(result.isError).toBeUndefined();
    });
  });

  describe('tools/call', () => {
    it('returns the rendered text and the object data as structuredContent on success', async () => {
      const { registry } = createNotesRegistry();
      const client = await connect(registry, { context: member });
      const result = await client.callTool({ name: 'list_notes', arguments: {} });
      expect(result).toEqual({
        content: [{ type: 'text', text: 'Operation completed successfully.\n\n- Title: Groceries\n- Pinned: Yes' }],
        structuredContent: { title: 'Groceries', pinned: true },
      });
    });

    it('sends data valid against the declared outputSchema as structuredContent', async () => {
      const { registry } = createNotesRegistry();
      const client = await connect(registry, { context: member });
      const result = await client.callTool({ name: 'add', arguments: { a: 5, b: 3 } });
      expect(result.structuredContent).toEqual({ sum: 8 });
      expect(result.content).toEqual([{ type: 'text', text: 'Operation completed successfully.\n\n- Sum: 8' }]);
    });

    it('sends no structuredContent for scalar data without an output schema', async () => {
      const { registry } = createNotesRegistry();
      const client = await connect(registry, { context: member });
      const result = await client.callTool({ name: 'chatty', arguments: {} });
      expect(result).toEqual({ content: [{ type: 'text', text: 'logged' }] });
    });

    it('reports INTERNAL_ERROR when the data does not match the declared outputSchema', async () => {
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli() });
      registry.register(
        defineTool({
          name: 'liar',
          description: 'Lies',
          outputSchema: Type.Object({ sum: Type.Number() }),
          handler: () => ({ sum: 'eight' }),
        }),
      );
      registry.register(defineTool({ name: 'nothing', description: 'Returns null', outputSchema: Type.Object({}), handler: () => null }));
      const client = await connect(registry, { context: member });
      await client.listTools();
      const result = await client.callTool({ name: 'liar', arguments: {} });
      expect(result).toEqual({
        isError: true,
        content: [
          { type: 'text', text: "Tool 'liar' returned data that does not match its output schema: sum: Expected number, got string" },
        ],
        _meta: { 'lat.milpa/error': { code: 'INTERNAL_ERROR' } },
      });
      const empty = await client.callTool({ name: 'nothing', arguments: {} });
      expect(empty.content).toEqual([
        { type: 'text', text: "Tool 'nothing' returned data that does not match its output schema: expected an object, got null" },
      ]);
    });

    it('keeps refusals of a tool with an outputSchema out of structuredContent, so SDK clients accept them', async () => {
      const { registry } = createNotesRegistry();
      const client = await connect(registry, { context: member });
      await client.listTools(); // the SDK client caches output validators from the listing
      const result = await client.callTool({ name: 'add', arguments: { a: 1 } });
      expect(result).toEqual({
        isError: true,
        content: [{ type: 'text', text: 'Missing required field: b' }],
        _meta: { 'lat.milpa/error': { code: 'VALIDATION_ERROR', errors: [{ path: 'b', message: 'Missing required field: b' }] } },
      });
    });

    it('passes rich content blocks through unchanged', async () => {
      const { registry } = createNotesRegistry();
      const client = await connect(registry, { context: member });
      const result = await client.callTool({ name: 'picture', arguments: {} });
      expect(result).toEqual({
        content: [
          { type: 'text', text: 'A red pixel' },
          { type: 'image', data: PIXEL_PNG, mimeType: 'image/png' },
          { type: 'resource', resource: { uri: 'notes://1', mimeType: 'text/plain', text: 'Groceries' } },
        ],
      });
    });

    it('returns a validation refusal with the field errors so the model can correct itself', async () => {
      const { registry } = createNotesRegistry();
      const client = await connect(registry, { context: member });
      const result = await client.callTool({ name: 'create_note', arguments: { pinned: 'yes' } });
      expect(result).toEqual(
        toolError('Missing required field: title; pinned: Expected boolean, got string', {
          code: 'VALIDATION_ERROR',
          errors: [
            { path: 'title', message: 'Missing required field: title' },
            { path: 'pinned', message: 'pinned: Expected boolean, got string' },
          ],
        }),
      );
    });

    /** What the client sees for `name`: the protocol error's code and message, or the tool result. */
    async function outcomeOf(client: Awaited<ReturnType<typeof connect>>, name: string, args: Record<string, unknown>): Promise<unknown> {
      try {
        return { result: await client.callTool({ name, arguments: args }) };
      } catch (caught) {
        return caught instanceof McpError ? { code: caught.code, message: caught.message.replace(name, '<name>') } : caught;
      }
    }

    it('answers an anonymous caller, who is offered no tool, exactly as for an unknown tool', async () => {
      const { registry } = createNotesRegistry();
      const client = await connect(registry);
      const hidden = await outcomeOf(client, 'list_notes', {});
      expect(hidden).toEqual({ code: ErrorCode.InvalidParams, message: expect.stringContaining('Tool not found: <name>') });
      expect(hidden).toEqual(await outcomeOf(client, 'no_such_tool', {}));
    });

    it('answers a caller without the scope exactly as for an unknown tool, naming neither the tool nor the scope', async () => {
      const { registry, recorder } = createNotesRegistry();
      const client = await connect(registry, { context: ({ requestId }) => ToolContext.mcp(requestId, 'user:2', ['notes:read']) });
      const unknown = await outcomeOf(client, 'no_such_tool', { id: 1 });
      // Valid arguments, invalid arguments, none: the same answer as an unknown name, and nothing runs.
      for (const args of [{ id: 1 }, { id: 'not a number' }, {}]) {
        const hidden = await outcomeOf(client, 'delete_note', args);
        expect(hidden).toEqual(unknown);
        expect(JSON.stringify(hidden)).not.toContain('notes:write');
      }
      expect(recorder.deleted).toEqual([]);
    });

    it('returns RATE_LIMITED with retry_after_seconds', async () => {
      const limiter: RateLimiter = {
        consume: () => RateLimitResult.denied("Rate limit exceeded for 'mcp:user:1:list_notes'", 42),
        getUsage: () => 0,
        reset: () => undefined,
      };
      const { registry } = createNotesRegistry({ rateLimiter: limiter });
      const client = await connect(registry, { context: member });
      const result = await client.callTool({ name: 'list_notes', arguments: {} });
      expect(result).toEqual(
        toolError("Rate limit exceeded for 'mcp:user:1:list_notes'", { code: 'RATE_LIMITED', retry_after_seconds: 42 }),
      );
    });

    it('returns BLOCKED when a tool.executing listener vetoes the call', async () => {
      const dispatcher = new EventDispatcher();
      dispatcher.subscribe(ToolEvents.EXECUTING, (_name, payload) => {
        (payload['slot'] as { stop(): void }).stop();
      });
      const { registry } = createNotesRegistry({ dispatcher });
      const client = await connect(registry, { context: member });
      const result = await client.callTool({ name: 'list_notes', arguments: {} });
      expect(result).toEqual(toolError('Tool execution vetoed by an event listener', { code: 'BLOCKED' }));
    });

    it('returns INTERNAL_ERROR with the message when the handler throws', async () => {
      const { registry } = createNotesRegistry();
      const client = await connect(registry, { context: member });
      const result = await client.callTool({ name: 'explode', arguments: {} });
      expect(result).toEqual(toolError('The disk is on fire', { code: 'INTERNAL_ERROR' }));
    });

    it('returns TIMEOUT when a hard timeout fires', async () => {
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli() });
      registry.register(
        defineTool({
          name: 'stuck',
          description: 'Never ends',
          timeoutMs: 5,
          hardTimeout: true,
          handler: () => new Promise(() => undefined),
        }),
      );
      const client = await connect(registry, { context: member });
      const result = await client.callTool({ name: 'stuck', arguments: {} });
      expect(result).toEqual(toolError("Tool 'stuck' timed out after 5 ms", { code: 'TIMEOUT' }));
    });

    it('returns TOOL_ERROR for a failure the tool reports without a code', async () => {
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli() });
      registry.register(defineTool({ name: 'grumpy', description: 'Says no', handler: () => ToolResult.error('Not today') }));
      const client = await connect(registry, { context: member });
      const result = await client.callTool({ name: 'grumpy', arguments: {} });
      expect(result).toEqual(toolError('Not today', { code: 'TOOL_ERROR' }));
    });

    it('rejects an unknown tool with the protocol InvalidParams error', async () => {
      const { registry } = createNotesRegistry();
      const client = await connect(registry, { context: member });
      const error = await client.callTool({ name: 'nope', arguments: {} }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(McpError);
      expect((error as McpError).code).toBe(ErrorCode.InvalidParams);
      expect((error as McpError).message).toContain('Tool not found: nope');
    });

    it('keeps a tool-reported TOOL_NOT_FOUND as a tool result when the tool exists', async () => {
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli() });
      registry.register(
        defineTool({ name: 'proxy', description: 'Proxies', handler: () => ToolResult.failure('TOOL_NOT_FOUND', 'Upstream tool missing') }),
      );
      const client = await connect(registry, { context: member });
      const result = await client.callTool({ name: 'proxy', arguments: {} });
      expect(result).toMatchObject({ isError: true, structuredContent: { code: 'TOOL_NOT_FOUND' } });
    });

    it('runs an empty argument object when the request has no arguments', async () => {
      const { registry } = createNotesRegistry();
      const client = await connect(registry, { context: member });
      const result = await client.callTool({ name: 'list_notes' });
      expect(result.structuredContent).toEqual({ title: 'Groceries', pinned: true });
    });

    it('refuses the call, running nothing, when the context builder throws', async () => {
      const { registry, recorder } = createNotesRegistry();
      const client = await connect(registry, {
        context: () => {
          throw new Error('no session');
        },
      });
      const result = await client.callTool({ name: 'delete_note', arguments: { id: 3 } });
      expect(result).toEqual(toolError("Could not build the caller's context: no session", { code: 'INTERNAL_ERROR' }));
      expect(recorder.deleted).toEqual([]);
    });

    it('reports a renderer fault as a tool error, not a protocol error', async () => {
      const { registry } = createNotesRegistry();
      const client = await connect(registry, {
        context: member,
        renderer: {
          render: () => {
            throw new Error('template missing');
          },
        },
      });
      const result = await client.callTool({ name: 'list_notes', arguments: {} });
      expect(result).toEqual(toolError("Could not present the result of 'list_notes': template missing", { code: 'INTERNAL_ERROR' }));
    });

    it('builds each context from the call info with a fresh 32-hex request id', async () => {
      const { registry } = createNotesRegistry();
      const seen: { requestId: string; toolName: string | null; rpcId: string | number }[] = [];
      const client = await connect(registry, {
        context: (call) => {
          seen.push({ requestId: call.requestId, toolName: call.toolName, rpcId: call.rpcId });
          return member(call);
        },
      });
      await client.callTool({ name: 'add', arguments: { a: 1, b: 1 } });
      await client.callTool({ name: 'add', arguments: { a: 1, b: 1 } });
      expect(seen).toHaveLength(2);
      expect(seen[0]?.requestId).toMatch(/^[0-9a-f]{32}$/);
      expect(seen[0]?.requestId).not.toBe(seen[1]?.requestId);
      expect(seen[0]?.toolName).toBe('add');
    });
  });

  describe('logging/setLevel', () => {
    it('answers {} and filters the log messages handlers send', async () => {
      const { registry } = createNotesRegistry();
      const client = await connect(registry, { context: member });
      const messages: unknown[] = [];
      client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
        messages.push(notification.params);
      });
      await client.callTool({ name: 'chatty', arguments: {} });
      expect(messages).toEqual([
        { level: 'debug', logger: 'chatty', data: 'debug detail' },
        { level: 'info', logger: 'chatty', data: { step: 'info step' } },
        { level: 'error', logger: 'chatty', data: 'error line' },
      ]);
      messages.length = 0;
      expect(await client.setLoggingLevel('warning')).toEqual({});
      await client.callTool({ name: 'chatty', arguments: {} });
      expect(messages).toEqual([{ level: 'error', logger: 'chatty', data: 'error line' }]);
    });

    it('keeps the level of each connection separate', async () => {
      const { registry } = createNotesRegistry();
      const quiet = await connect(registry, { context: member });
      const loud = await connect(registry, { context: member });
      await quiet.setLoggingLevel('emergency');
      const heard: string[] = [];
      loud.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => void heard.push(notification.params.level));
      quiet.setNotificationHandler(LoggingMessageNotificationSchema, () => void heard.push('quiet'));
      await loud.callTool({ name: 'chatty', arguments: {} });
      await quiet.callTool({ name: 'chatty', arguments: {} });
      expect(heard).toEqual(['debug', 'info', 'error']);
    });
  });

  it('returns a new SDK server per call, so one registry can serve many connections', () => {
    const { registry } = createNotesRegistry();
    expect(createMcpServer(registry)).not.toBe(createMcpServer(registry));
  });
});
