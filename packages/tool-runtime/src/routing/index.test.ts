import { describe, expect, it } from 'vitest';
import * as routing from './index.js';

describe('@milpa/tool-runtime/routing', () => {
  it('exports exactly this public surface', () => {
    expect(Object.keys(routing).sort()).toMatchInlineSnapshot(`
      [
        "DEFAULT_MODEL_LIMIT",
        "DEFAULT_MODEL_TOOL_BUDGET",
        "MODEL_LIMITS",
        "MODEL_TOOL_BUDGETS",
        "OPENAI_STYLE_PROVIDERS",
        "ProviderToolShapes",
        "RECOMMENDED_TOOL_BUDGET_PERCENT",
        "ROUTING_SIGNAL_WEIGHTS",
        "TokenEstimator",
        "ToolRouter",
        "UNLIMITED",
        "fitTokenBudget",
        "profileDescriptionStyle",
        "profileMaxTools",
        "profileTokenBudget",
        "resolveProviderShape",
        "resolveToolBudget",
        "resolveToolProfile",
        "toProviderTool",
        "toolBudgetForModel",
      ]
    `);
  });
});
