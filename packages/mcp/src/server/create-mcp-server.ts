import { generateRequestId, type GovernedToolRegistry, type ToolContext } from '@milpa/core';
import { DefaultRenderer } from '@milpa/tool-runtime/rendering';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, SetLevelRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { LogLevelThreshold } from '../caller/log-level-threshold.js';
import { toMcpTool } from '../tools/to-mcp-tool.js';
import { contextFromAuthInfo } from './context-from-auth-info.js';
import { MCP_PACKAGE_VERSION } from './mcp-package-version.js';
import type { McpServerOptions } from './mcp-server-options.js';
import { ToolCallHandler } from './tool-call-handler.js';

/**
 * An MCP server (the SDK's low-level `Server`) that serves `registry`: `tools/list` lists exactly
 * the tools the caller may call (its context, built as for a call, through `listToolsFor`), each
 * with its own JSON Schema; `tools/call` runs the registry's full pipeline; and
 * `logging/setLevel` filters the log messages handlers send. Connect it to any SDK transport; one
 * server serves one connection. `serveStdio` and `serveHttp` do that for you.
 *
 * `registry` is any `GovernedToolRegistry`; a `@milpa/tool-runtime` `ToolRegistry` also lends its
 * confirmation store (a declined confirmation form revokes its token at once) and its schema
 * validator (output is checked with the same formats as arguments).
 *
 * @example
 * const server = createMcpServer(registry, { name: 'notes', context: ({ requestId }) => ToolContext.stdio(requestId) });
 * await server.connect(new StdioServerTransport());
 */
export function createMcpServer(registry: GovernedToolRegistry, options: McpServerOptions = {}): Server {
  const server = new Server(
    { name: options.name ?? 'milpa', version: options.version ?? MCP_PACKAGE_VERSION },
    {
      capabilities: { tools: { listChanged: false }, logging: {} },
      ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
    },
  );
  const logLevel = new LogLevelThreshold();
  const contextFor = options.context ?? ((call) => contextFromAuthInfo(call.requestId, call.authInfo));
  const calls = new ToolCallHandler(registry, server, logLevel, {
    contextFor,
    renderer: options.renderer ?? new DefaultRenderer(),
    confirmation: options.confirmation ?? 'elicit',
  });

  // Replaces the SDK's own handler: the level must apply to messages sent on each call's stream.
  server.setRequestHandler(SetLevelRequestSchema, (request) => {
    if (LogLevelThreshold.isLevel(request.params.level)) logLevel.set(request.params.level);
    return {};
  });
  // What a client is offered is what it may call: a caller that may call nothing is offered nothing.
  server.setRequestHandler(ListToolsRequestSchema, async (_request, extra) => {
    let context: ToolContext;
    try {
      context = contextFor({
        requestId: generateRequestId(),
        toolName: null,
        rpcId: extra.requestId,
        ...(extra.authInfo === undefined ? {} : { authInfo: extra.authInfo }),
        ...(extra.sessionId === undefined ? {} : { sessionId: extra.sessionId }),
      });
    } catch {
      // Fail closed: without a context, nothing is offered.
      return { tools: [] };
    }
    return { tools: (await registry.listToolsFor(context)).map(toMcpTool) };
  });
  server.setRequestHandler(CallToolRequestSchema, (request, extra) =>
    calls.handle(request.params.name, request.params.arguments ?? {}, extra),
  );
  return server;
}
