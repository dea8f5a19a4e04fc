// The upstream of the gateway overhead benchmark: a stdio MCP server with one read-only tool that
// echoes its argument. Plain JavaScript, so the child starts with `node` and no TypeScript loader.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const server = new Server({ name: 'bench-upstream', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, () => ({
  tools: [
    {
      name: 'echo',
      description: 'Echo the text back',
      inputSchema: {
        type: 'object',
        properties: { text: { type: 'string', maxLength: 100 } },
        required: ['text'],
        additionalProperties: false,
      },
      annotations: { readOnlyHint: true },
    },
  ],
}));
server.setRequestHandler(CallToolRequestSchema, (request) => ({
  content: [{ type: 'text', text: String(request.params.arguments?.text) }],
}));
await server.connect(new StdioServerTransport());
process.stdin.once('end', () => process.exit(0));
