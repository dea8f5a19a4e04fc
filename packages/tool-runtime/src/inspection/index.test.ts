import { describe, expect, it } from 'vitest';
import * as inspection from './index.js';

describe('@milpa/tool-runtime/inspection', () => {
  it('exports exactly this public surface', () => {
    expect(Object.keys(inspection).sort()).toMatchInlineSnapshot(`
      [
        "InvocationPlan",
        "InvocationPlanBuilder",
        "InvocationStep",
        "InvocationStepKind",
        "InvocationStepRole",
        "RegistryWiring",
        "StepPresence",
        "isHostStepKind",
      ]
    `);
  });
});
