// Mutation testing of this package's security core, the store's decide path: run
// `pnpm mutation verification [file]` from the repository root (see ../../stryker.shared.mjs and
// CONTRIBUTING.md).
import { strykerConfig } from '../../stryker.shared.mjs';

export default strykerConfig('verification', ['src/store/in-memory-verification-store.ts', 'src/store/apply-verification-decision.ts']);
