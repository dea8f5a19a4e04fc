// Mutation testing of this package's security core, the HTTP transport's guards: run
// `pnpm mutation mcp [file]` from the repository root (see ../../stryker.shared.mjs and
// CONTRIBUTING.md).
import { strykerConfig } from '../../stryker.shared.mjs';

export default strykerConfig('mcp', ['src/http/bearer-authenticator.ts', 'src/http/host-origin-guard.ts']);
