import { defineConfig } from 'tsup';
import packageJson from './package.json' with { type: 'json' };
import { sharedTsupOptions } from '../../tsup.shared.ts';

export default defineConfig({
  ...sharedTsupOptions,
  // The one field the code needs from package.json, as a constant (see src/server/mcp-package-version.ts).
  define: { MILPA_MCP_VERSION: JSON.stringify(packageJson.version) },
});
