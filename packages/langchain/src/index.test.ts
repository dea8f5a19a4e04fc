import { describe, expect, it } from 'vitest';
import * as langchain from './index.js';

describe('@milpa/langchain', () => {
  it('exports exactly its public API', () => {
    expect(Object.keys(langchain).sort()).toMatchInlineSnapshot(`
      [
        "MilpaTool",
        "MilpaToolkit",
        "approveReview",
        "rejectReview",
      ]
    `);
  });
});
