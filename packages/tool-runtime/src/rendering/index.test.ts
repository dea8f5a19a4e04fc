import { describe, expect, it } from 'vitest';
import * as rendering from './index.js';

describe('@milpa/tool-runtime/rendering', () => {
  it('exports exactly this public surface', () => {
    expect(Object.keys(rendering).sort()).toMatchInlineSnapshot(`
      [
        "CliRenderer",
        "DefaultRenderer",
        "RendererRegistry",
      ]
    `);
  });
});
