import { ToolResult, Type, defineTool, type ToolCaller } from '@milpa/core';
import { ToolRegistry, type ToolRegistryOptions } from '@milpa/tool-runtime';

/** A 1×1 PNG, base64. */
export const PIXEL_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

/** What the fixture tools observed, for assertions. */
export interface NotesRecorder {
  /** Ids passed to `delete_note` executions, in order. */
  readonly deleted: number[];
  /** The `caller` each handler received, by tool name (last call wins). */
  readonly callers: Map<string, ToolCaller>;
  /** Settles with the abort reason when the running `wait_for_abort` handler's signal aborts. */
  aborted: Promise<unknown>;
  /** Settles when `wait_for_abort` has started. */
  started: Promise<void>;
}

/**
 * A registry with one tool per behaviour the MCP channel must carry: structured output, scopes,
 * confirmation, rich content, failures, progress, logging, elicitation, sampling and abort.
 */
export function createNotesRegistry(options: ToolRegistryOptions = {}): { registry: ToolRegistry; recorder: NotesRecorder } {
  let markAborted: (reason: unknown) => void = () => undefined;
  let markStarted: () => void = () => undefined;
  const recorder: NotesRecorder = {
    deleted: [],
    callers: new Map(),
    aborted: new Promise((resolve) => (markAborted = resolve)),
    started: new Promise((resolve) => (markStarted = resolve)),
  };
  const registry = new ToolRegistry(options);
  registry.register(
    defineTool({
      name: 'add',
      title: 'Add numbers',
      description: 'Add two numbers',
      input: Type.Object({ a: Type.Number(), b: Type.Number() }),
      outputSchema: Type.Object({ sum: Type.Number() }),
      handler: ({ a, b }) => ({ sum: a + b }),
    }),
  );
  registry.register(
    defineTool({
      name: 'list_notes',
      description: 'List saved notes',
      scopes: ['notes:read'],
      input: Type.Object({ page: Type.Optional(Type.Integer({ minimum: 1 })) }),
      handler: () => ({ title: 'Groceries', pinned: true }),
    }),
  );
  registry.register(
    defineTool({
      name: 'create_note',
      description: 'Create a note',
      scopes: ['notes:write'],
      mutating: true,
      input: Type.Object({ title: Type.String(), pinned: Type.Optional(Type.Boolean()) }),
      handler: ({ title }) => ({ id: 1, title }),
    }),
  );
  registry.register(
    defineTool({
      name: 'delete_note',
      description: 'Delete a note',
      scopes: ['notes:write'],
      mutating: true,
      requiresConfirmation: true,
      input: Type.Object({ id: Type.Integer() }, { additionalProperties: false }),
      handler: ({ id }) => {
        recorder.deleted.push(id);
        return { deleted: id };
      },
    }),
  );
  registry.register(
    defineTool({
      name: 'picture',
      description: 'Return a picture with a caption',
      handler: () =>
        ToolResult.content([
          { type: 'text', text: 'A red pixel' },
          { type: 'image', data: PIXEL_PNG, mimeType: 'image/png' },
          { type: 'resource', resource: { uri: 'notes://1', mimeType: 'text/plain', text: 'Groceries' } },
        ]),
    }),
  );
  registry.register(
    defineTool({
      name: 'explode',
      description: 'Always throws',
      handler: () => {
        throw new Error('The disk is on fire');
      },
    }),
  );
  registry.register(
    defineTool({
      name: 'wait_for_abort',
      description: 'Runs until its signal aborts',
      handler: (_args, { signal, caller }) => {
        recorder.callers.set('wait_for_abort', caller);
        return new Promise((resolve) => {
          signal.addEventListener('abort', () => {
            markAborted(signal.reason);
            resolve('aborted');
          });
          markStarted();
        });
      },
    }),
  );
  registry.register(
    defineTool({
      name: 'count',
      description: 'Reports progress three times',
      handler: async (_args, { caller }) => {
        recorder.callers.set('count', caller);
        await caller.reportProgress(0, 100);
        await caller.reportProgress(50, 100, 'half way');
        await caller.reportProgress(100, 100);
        return { counted: 3 };
      },
    }),
  );
  registry.register(
    defineTool({
      name: 'chatty',
      description: 'Logs at three levels',
      handler: async (_args, { caller }) => {
        await caller.log('debug', 'debug detail');
        await caller.log('info', { step: 'info step' });
        await caller.log('error', 'error line');
        return 'logged';
      },
    }),
  );
  registry.register(
    defineTool({
      name: 'ask_name',
      description: 'Asks the user for a name',
      handler: async (_args, { caller }) => {
        recorder.callers.set('ask_name', caller);
        const answer = await caller.elicit({
          message: 'Your name?',
          requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
        });
        return answer.action === 'accept' ? `Hello ${String(answer.content['name'])}` : `No name (${answer.action})`;
      },
    }),
  );
  registry.register(
    defineTool({
      name: 'summarize',
      description: "Asks the client's model to summarize",
      input: Type.Object({ text: Type.String() }),
      handler: async ({ text }, { caller }) => {
        const outcome = await caller.sample({
          messages: [{ role: 'user', content: `Summarize: ${text}` }],
          maxTokens: 50,
          systemPrompt: 'Be brief',
        });
        return outcome.status === 'ok' ? `${outcome.text} (${outcome.model ?? 'unknown model'})` : 'sampling unsupported';
      },
    }),
  );
  return { registry, recorder };
}
