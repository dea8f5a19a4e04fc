import { describe, expect, it } from 'vitest';
import * as runtime from '../index.js';
import * as audit from './index.js';

describe('@milpa/tool-runtime/audit', () => {
  it('exports exactly this public surface', () => {
    expect(Object.keys(audit).sort()).toMatchInlineSnapshot(`
      [
        "DEFAULT_SENSITIVE_FIELDS",
        "REDACTED",
        "Redactor",
        "ToolAuditLogger",
      ]
    `);
  });

  it('is not repeated on the main entry point', () => {
    for (const name of Object.keys(audit)) expect(Object.keys(runtime)).not.toContain(name);
  });
});
