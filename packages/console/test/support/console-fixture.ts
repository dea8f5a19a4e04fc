import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ToolContext, Type, defineTool, type AnyToolDefinition, type EventDispatcher, type EventListener } from '@milpa/core';
import { InMemoryInvocationHistoryStore, SchemaValidator, ToolRegistry, type ToolRegistryOptions } from '@milpa/tool-runtime';
import { HumanVerifier, verifierApprovalGate } from '@milpa/verification';
import { createApprovalConsole, tokenAuthentication, type ApprovalConsole, type ApprovalConsoleOptions } from '../../src/index.js';

/** A dispatcher with just what the verifier and the console use: exact names and `ns.*`. */
export class TestDispatcher {
  readonly #listeners: { name: string; listener: EventListener }[] = [];
  subscribe(name: string, listener: EventListener): () => void {
    const entry = { name, listener };
    this.#listeners.push(entry);
    return () => void this.#listeners.splice(this.#listeners.indexOf(entry), 1);
  }
  async dispatch(name: string, payload?: unknown): Promise<void> {
    for (const { name: pattern, listener } of [...this.#listeners]) {
      const matches = pattern === name || (pattern.endsWith('.*') && name.startsWith(pattern.slice(0, -1)));
      if (matches) await (listener as (eventName: string, payload: unknown) => unknown)(name, payload);
    }
  }
}

export const TOKENS = {
  ana: 'ana-token-0123456789abcdef',
  luis: 'luis-token-0123456789abcdef',
  agent: 'agent-token-0123456789abcdef',
} as const;

export const AGENT = 'agent:assistant';

/** A Milpa runtime whose mutating calls wait for people, and the console in front of it. */
export interface ConsoleFixture {
  readonly registry: ToolRegistry;
  readonly verifier: HumanVerifier;
  readonly dispatcher: EventDispatcher;
  readonly console: ApprovalConsole;
  readonly url: string;
  readonly base: string;
  readonly executed: { tool: string; args: Record<string, unknown> }[];
  readonly agent: ToolContext;
  readonly runId: string;
  close(): Promise<void>;
}

/** What a test adds to the fixture's runtime. */
export interface FixtureSetup {
  /** Further tools (every mutating one is held for approval; `delete_note` needs two approvers). */
  readonly tools?: readonly AnyToolDefinition[];
  /** Further registry options (an approval store, target resolvers, rules). */
  readonly registry?: Partial<ToolRegistryOptions>;
}

export async function startConsoleFixture(
  overrides: Partial<ApprovalConsoleOptions> = {},
  setup: FixtureSetup = {},
): Promise<ConsoleFixture> {
  const dispatcher = new TestDispatcher() as unknown as EventDispatcher;
  const verifier = new HumanVerifier({ dispatcher, ttlMs: 30 * 60_000 });
  const history = new InMemoryInvocationHistoryStore();
  const registry = new ToolRegistry({
    historyStore: history,
    approvalGate: verifierApprovalGate(verifier, { policy: (request) => (request.toolName === 'delete_note' ? 'dual' : 'single') }),
    ...setup.registry,
  });
  const executed: { tool: string; args: Record<string, unknown> }[] = [];
  registry.register(
    defineTool({
      name: 'print_note',
      description: 'Prints copies of a note.',
      input: Type.Object({
        id: Type.String(),
        copies: Type.Integer({ minimum: 1, maximum: 10, description: 'How many copies, 1 to 10.' }),
        title: Type.Optional(Type.String({ maxLength: 200 })),
        api_key: Type.Optional(Type.String()),
      }),
      mutating: true,
      handler: (args) => {
        executed.push({ tool: 'print_note', args: { ...args } });
        return { printed: args.copies };
      },
    }),
  );
  registry.register(
    defineTool({
      name: 'delete_note',
      description: 'Deletes a note.',
      input: Type.Object({ id: Type.String() }),
      mutating: true,
      handler: (args) => {
        executed.push({ tool: 'delete_note', args: { ...args } });
        return { deleted: args.id };
      },
    }),
  );
  registry.register(
    defineTool({
      name: 'read_note',
      description: 'Reads a note.',
      input: Type.Object({ id: Type.String() }),
      handler: (args) => ({ id: args.id, text: 'hello' }),
    }),
  );
  for (const tool of setup.tools ?? []) registry.register(tool);
  const base = '/approvals/';
  const console = createApprovalConsole({
    verifier,
    dispatcher,
    history,
    tools: registry,
    validator: new SchemaValidator(),
    basePath: '/approvals',
    pollIntervalMs: 200,
    ...tokenAuthentication({ tokens: { [TOKENS.ana]: 'user:ana', [TOKENS.luis]: 'user:luis', [TOKENS.agent]: AGENT } }),
    ...overrides,
  });
  const server: Server = createServer(console);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const runId = await registry.startRun();
  const agent = new ToolContext({ principal: AGENT, channel: 'mcp', scopes: ['*'], runId });
  return {
    registry,
    verifier,
    dispatcher,
    console,
    url: `http://127.0.0.1:${port}`,
    base,
    executed,
    agent,
    runId,
    async close() {
      console.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** What {@link send} answers. */
export interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

/** One raw HTTP request (any header, unlike fetch), answered in full. */
export function send(url: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method: init.method ?? 'GET', headers: init.headers ?? {} }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString('utf8') }),
      );
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(init.body);
  });
}

/** Holds a call for approval and answers its approval id. */
export async function holdCall(fixture: ConsoleFixture, tool: string, args: Record<string, unknown>): Promise<string> {
  const held = await fixture.registry.call(tool, args, fixture.agent);
  const data = held.data as { approval_id?: string } | null;
  if (held.getCode?.() !== 'APPROVAL_PENDING' && typeof data?.approval_id !== 'string')
    throw new Error(`expected a held call, got ${JSON.stringify(held.toJSON())}`);
  return data!.approval_id!;
}
