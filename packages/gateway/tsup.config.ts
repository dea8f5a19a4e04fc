import { defineConfig } from 'tsup';
import packageJson from './package.json' with { type: 'json' };
import { sharedTsupOptions } from '../../tsup.shared.ts';

export default defineConfig({
  ...sharedTsupOptions,
  // The library, and the milpa-gateway command (package.json `bin`).
  entry: ['src/index.ts', 'src/cli.ts'],
  // The one field the code needs from package.json, as a constant (see src/gateway/gateway-package-version.ts).
  define: { MILPA_GATEWAY_VERSION: JSON.stringify(packageJson.version) },
});
