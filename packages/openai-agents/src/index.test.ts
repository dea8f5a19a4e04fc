import { describe, expect, it } from 'vitest';
import * as openaiAgents from './index.js';

describe('@milpa/openai-agents', () => {
  describe('surface', () => {
    it('exports exactly these run-time values', () => {
      expect(Object.keys(openaiAgents).sort()).toMatchInlineSnapshot(`
        [
          "agentsApprovalGate",
          "toAgentsTools",
          "toModelOutput",
        ]
      `);
    });
  });
});
