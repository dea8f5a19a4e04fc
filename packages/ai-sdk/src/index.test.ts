import { describe, expect, it } from 'vitest';
import * as aiSdk from './index.js';

describe('@milpa/ai-sdk', () => {
  describe('surface', () => {
    it('exports exactly these run-time values', () => {
      expect(Object.keys(aiSdk).sort()).toMatchInlineSnapshot(`
        [
          "InMemoryToolApprovalLedger",
          "aiSdkTools",
          "toAiSdkToolOutput",
        ]
      `);
    });
  });
});
