// Serves the conformance fixture tools over Streamable HTTP until interrupted:
//   pnpm --filter @milpa/mcp-conformance serve [port]
import { serveHttp } from '@milpa/mcp';
import { CONFORMANCE_SERVER_OPTIONS } from './conformance-server-options.js';
import { createConformanceRegistry } from './create-conformance-registry.js';

const port = Number(process.argv[2] ?? process.env['PORT'] ?? 3000);
const handle = await serveHttp(createConformanceRegistry(), { ...CONFORMANCE_SERVER_OPTIONS, port });
process.stdout.write(`MCP conformance fixture server listening on ${handle.url}\n`);
const stop = (): void => void handle.close().then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
