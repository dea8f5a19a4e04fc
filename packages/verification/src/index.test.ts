import { describe, expect, it } from 'vitest';
import * as verification from './index.js';

describe('@milpa/verification', () => {
  describe('exports', () => {
    it('exposes exactly the public runtime names', () => {
      expect(Object.keys(verification).sort()).toEqual([
        'HumanVerifier',
        'InMemoryVerificationStore',
        'VerificationError',
        'VerificationTool',
        'applyVerificationDecision',
        'verifierApprovalGate',
      ]);
    });
  });
});
