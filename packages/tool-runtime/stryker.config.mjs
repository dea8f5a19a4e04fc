// Mutation testing of this package's security core: run `pnpm mutation tool-runtime [file]` from
// the repository root (see ../../stryker.shared.mjs and CONTRIBUTING.md).
import { strykerConfig } from '../../stryker.shared.mjs';

export default strykerConfig('tool-runtime', [
  'src/policy/policy-gate.ts',
  'src/confirmation/confirmation-token-store.ts',
  'src/audit/redactor.ts',
  'src/audit/secret-shapes.ts',
  'src/rate-limiting/in-memory-rate-limiter.ts',
  'src/rate-limiting/rate-limit-key.ts',
  'src/validation/apply-clamps.ts',
  'src/pipeline/authorize-call.ts',
  'src/pipeline/stages/authorize-stage.ts',
  'src/pipeline/stages/confirm-stage.ts',
  'src/pipeline/stages/rules-stage.ts',
  'src/pipeline/evaluate-invocation.ts',
  'src/pipeline/stages/approve-stage.ts',
  'src/pipeline/resume-held-call.ts',
  'src/approval/in-memory-approval-store.ts',
  'src/pipeline/stages/idempotency-stage.ts',
  'src/pipeline/stages/idempotency-record-stage.ts',
]);
