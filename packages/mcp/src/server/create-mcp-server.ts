import { DefaultRenderer, type ToolRegistry } from '@milpa/tool-runtime';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, SetLevelRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { LogLevelThreshold } from '../caller/log-level-threshold.js';
import { toMcpTool } from '../tools/to-mcp-tool.js';
import { contextFromAuthInfo } from './context-from-auth-info.js';
import { MCP_PACKAGE_VERSION } from './mcp-package-version.js';
import type { McpServerOptions } from './mcp-server-options.js';
import { ToolCallHandler } from './tool-call-handler.js';

/**
 * An MCP server (the SDK's low-level `Server`) that serves `registry`: `tools/list` lists every
 * registered tool with its own JSON Schema, `tools/call` runs the registry's full pipeline, and
 * `logging/setLevel` filters the log messages handlers send. Connect it to any SDK transport; one
 * server serves one connection. `serveStdio` and `serveHttp` do that for you.
 *
 * @example
 * const server = createMcpServer(registry, { name: 'notes', context: ({ requestId }) => ToolContext.stdio(requestId) });
 * await server.connect(new StdioServerTransport());
 */
export function createMcpServer(registry: ToolRegistry, options: McpServerOptions = {}): Server {
  const server = new Server(
    { name: options.name ?? 'milpa', version: options.version ?? MCP_PACKAGE_VERSION },
    {
      capabilities: { tools: { listChanged: false }, logging: {} },
      ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
    },
  );
  const logLevel = new LogLevelThreshold();
  const calls = new ToolCallHandler(registry, server, logLevel, {
    contextFor: options.context ?? ((call) => contextFromAuthInfo(call.requestId, call.authInfo)),
    renderer: options.renderer ?? new DefaultRenderer(),
    confirmation: options.confirmation ?? 'elicit',
  });

  // Replaces the SDK's own handler: the level must apply to messages sent on each call's stream.
  server.setRequestHandler(SetLevelRequestSchema, (request) => {
    if (LogLevelThreshold.isLevel(request.params.level)) logLevel.set(request.params.level);
    return {};
  });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: registry.getToolDefinitions().map(toMcpTool) }));
  server.setRequestHandler(CallToolRequestSchema, (request, extra) =>
    calls.handle(request.params.name, request.params.arguments ?? {}, extra),
  );
  return server;
}
