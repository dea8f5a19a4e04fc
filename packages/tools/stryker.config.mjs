// Mutation testing of this package's sandbox core: the workspace path checks (and the check of an
// opened file), the sensitive and build-file lists and their patterns, the SSRF address ranges, the
// shell tokenizer and the SQL checks. Run `pnpm mutation tools [file]` from the repository root
// (see ../../stryker.shared.mjs and CONTRIBUTING.md).
import { strykerConfig } from '../../stryker.shared.mjs';

export default strykerConfig('tools', [
  'src/sandbox/workspace.ts',
  'src/sandbox/sensitive-paths.ts',
  'src/sandbox/path-pattern.ts',
  'src/sandbox/opened-file-path.ts',
  'src/sandbox/file-system-refusal.ts',
  'src/tools/http-request/forbidden-addresses.ts',
  'src/tools/shell-exec/tokenize-shell-command.ts',
  'src/tools/db-query/check-sql-query.ts',
  'src/tools/db-query/sql-allowlist.ts',
  'src/tools/db-query/sql-hidden-secret-checks.ts',
  'src/tools/db-query/sql-unbounded-checks.ts',
]);
