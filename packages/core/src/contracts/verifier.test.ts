import { describe, expectTypeOf, it } from 'vitest';
import type { VerificationContext } from '../verification/verification-context.js';
import type { VerificationRequest } from '../verification/verification-request.js';
import type { VerificationResult } from '../verification/verification-result.js';
import type { Verifier } from './verifier.js';

describe('Verifier', () => {
  it('accepts a synchronous rule and an asynchronous check, with an optional context', () => {
    expectTypeOf<{ verify: (request: VerificationRequest) => VerificationResult }>().toExtend<Verifier>();
    expectTypeOf<{
      verify: (request: VerificationRequest, context?: VerificationContext) => Promise<VerificationResult>;
    }>().toExtend<Verifier>();
    expectTypeOf<{ verify: (request: VerificationRequest) => boolean }>().not.toExtend<Verifier>();
  });
});
