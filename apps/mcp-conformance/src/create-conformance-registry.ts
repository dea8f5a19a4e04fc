import { ToolResult, Type, defineTool, normalizeToolDefinition, type ElicitationOutcome } from '@milpa/core';
import { closeMcpSseStream } from '@milpa/mcp';
import { ToolRegistry } from '@milpa/tool-runtime';
import { RED_PIXEL_PNG, SILENT_WAV } from './fixture-media.js';

const JSON_SCHEMA_2020_12 = 'https://json-schema.org/draft/2020-12/schema';
/** How long `test_reconnection` works on after closing its stream: long enough for the client to be away. */
const RECONNECTION_WORK_MS = 100;

function text(value: string): ToolResult {
  return ToolResult.content([{ type: 'text', text: value }]);
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

function describeOutcome(outcome: ElicitationOutcome): string {
  const content = outcome.action === 'accept' ? JSON.stringify(outcome.content) : '{}';
  return `action=${outcome.action}, content=${content}`;
}

/**
 * A registry holding the MCP conformance suite's server fixture tools (0.1.13), each an ordinary
 * Milpa tool: declared with `defineTool`, run through the governed pipeline, reaching the client
 * through `invocation.caller` (progress, logging, elicitation, sampling).
 */
export function createConformanceRegistry(): ToolRegistry {
  const registry = new ToolRegistry();
  const tools = [
    defineTool({
      name: 'test_simple_text',
      description: 'Returns a simple text response',
      handler: () => text('This is a simple text response for testing.'),
    }),
    defineTool({
      name: 'test_image_content',
      description: 'Returns a 1x1 red PNG',
      handler: () => ToolResult.content([{ type: 'image', data: RED_PIXEL_PNG, mimeType: 'image/png' }]),
    }),
    defineTool({
      name: 'test_audio_content',
      description: 'Returns a short silent WAV',
      handler: () => ToolResult.content([{ type: 'audio', data: SILENT_WAV, mimeType: 'audio/wav' }]),
    }),
    defineTool({
      name: 'test_embedded_resource',
      description: 'Returns an embedded text resource',
      handler: () =>
        ToolResult.content([
          {
            type: 'resource',
            resource: { uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource content.' },
          },
        ]),
    }),
    defineTool({
      name: 'test_multiple_content_types',
      description: 'Returns text, an image and an embedded resource',
      handler: () =>
        ToolResult.content([
          { type: 'text', text: 'Multiple content types test:' },
          { type: 'image', data: RED_PIXEL_PNG, mimeType: 'image/png' },
          {
            type: 'resource',
            resource: {
              uri: 'test://mixed-content-resource',
              mimeType: 'application/json',
              text: JSON.stringify({ test: 'data', value: 123 }),
            },
          },
        ]),
    }),
    defineTool({
      name: 'test_tool_with_logging',
      description: 'Sends three info log messages while it runs',
      handler: async (_args, { caller, signal }) => {
        await caller.log('info', 'Tool execution started');
        await pause(50, signal);
        await caller.log('info', 'Tool processing data');
        await pause(50, signal);
        await caller.log('info', 'Tool execution completed');
        return text('Tool with logging executed successfully');
      },
    }),
    defineTool({
      name: 'test_error_handling',
      description: 'Always fails',
      handler: () => {
        throw new Error('This tool intentionally returns an error for testing');
      },
    }),
    defineTool({
      name: 'test_tool_with_progress',
      description: 'Reports progress 0, 50 and 100 of 100',
      handler: async (_args, { caller, signal }) => {
        await caller.reportProgress(0, 100);
        await pause(50, signal);
        await caller.reportProgress(50, 100);
        await pause(50, signal);
        await caller.reportProgress(100, 100);
        return text('Tool with progress executed successfully');
      },
    }),
    defineTool({
      name: 'test_sampling',
      description: "Asks the client's model to answer a prompt",
      input: Type.Object({ prompt: Type.String({ description: 'The prompt to send to the LLM' }) }),
      handler: async ({ prompt }, { caller }) => {
        const outcome = await caller.sample({ messages: [{ role: 'user', content: prompt }], maxTokens: 100 });
        if (outcome.status === 'unsupported') return ToolResult.error('The client does not support sampling');
        return text(`LLM response: ${outcome.text}`);
      },
    }),
    defineTool({
      name: 'test_elicitation',
      description: 'Asks the user for a username and an email address',
      input: Type.Object({ message: Type.String({ description: 'The message to show the user' }) }),
      handler: async ({ message }, { caller }) => {
        const outcome = await caller.elicit({
          message,
          requestedSchema: {
            type: 'object',
            properties: {
              username: { type: 'string', description: "User's response" },
              email: { type: 'string', description: "User's email address" },
            },
            required: ['username', 'email'],
          },
        });
        if (outcome.action === 'unsupported') return ToolResult.error('The client does not support elicitation');
        return text(`User response: ${describeOutcome(outcome)}`);
      },
    }),
    defineTool({
      name: 'test_elicitation_sep1034_defaults',
      description: 'Asks for input with a default for every primitive type (SEP-1034)',
      handler: async (_args, { caller }) => {
        const outcome = await caller.elicit({
          message: 'Please review and update the form fields with defaults',
          requestedSchema: {
            type: 'object',
            properties: {
              name: { type: 'string', description: 'User name', default: 'John Doe' },
              age: { type: 'integer', description: 'User age', default: 30 },
              score: { type: 'number', description: 'User score', default: 95.5 },
              status: { type: 'string', description: 'User status', enum: ['active', 'inactive', 'pending'], default: 'active' },
              verified: { type: 'boolean', description: 'Verification status', default: true },
            },
            required: [],
          },
        });
        return text(`Elicitation completed: ${describeOutcome(outcome)}`);
      },
    }),
    defineTool({
      name: 'test_elicitation_sep1330_enums',
      description: 'Asks for input with every enum form (SEP-1330)',
      handler: async (_args, { caller }) => {
        const outcome = await caller.elicit({
          message: 'Please select options from the enum fields',
          requestedSchema: {
            type: 'object',
            properties: {
              untitledSingle: { type: 'string', description: 'Untitled single-select', enum: ['option1', 'option2', 'option3'] },
              titledSingle: {
                type: 'string',
                description: 'Titled single-select',
                oneOf: [
                  { const: 'value1', title: 'First Option' },
                  { const: 'value2', title: 'Second Option' },
                  { const: 'value3', title: 'Third Option' },
                ],
              },
              legacyEnum: {
                type: 'string',
                description: 'Legacy titled enum',
                enum: ['opt1', 'opt2', 'opt3'],
                enumNames: ['Option One', 'Option Two', 'Option Three'],
              },
              untitledMulti: {
                type: 'array',
                description: 'Untitled multi-select',
                items: { type: 'string', enum: ['option1', 'option2', 'option3'] },
              },
              titledMulti: {
                type: 'array',
                description: 'Titled multi-select',
                items: {
                  anyOf: [
                    { const: 'value1', title: 'First Choice' },
                    { const: 'value2', title: 'Second Choice' },
                    { const: 'value3', title: 'Third Choice' },
                  ],
                },
              },
            },
            required: [],
          },
        });
        return text(`Elicitation completed: ${describeOutcome(outcome)}`);
      },
    }),
    defineTool({
      name: 'test_reconnection',
      description: 'Closes its SSE stream mid-call so the client reconnects and polls for the result (SEP-1699)',
      handler: async (_args, { caller, signal }) => {
        // The result is sent while the client is away: it reaches it from the session's event store,
        // on the GET the client reconnects with (`Last-Event-ID`).
        closeMcpSseStream(caller);
        await pause(RECONNECTION_WORK_MS, signal);
        return text('Reconnection test completed successfully');
      },
    }),
    // Declared as raw JSON Schema 2020-12, exactly as the suite expects it listed.
    normalizeToolDefinition({
      name: 'json_schema_2020_12_tool',
      description: 'Tool with JSON Schema 2020-12 features',
      inputSchema: {
        $schema: JSON_SCHEMA_2020_12,
        type: 'object',
        $defs: { address: { type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } } } },
        properties: { name: { type: 'string' }, address: { $ref: '#/$defs/address' } },
        additionalProperties: false,
      },
      handler: (args: Record<string, unknown>) => text(`Received: ${JSON.stringify(args)}`),
    }),
  ];
  for (const tool of tools) registry.register(tool);
  return registry;
}
