import { ToolErrorCode, type JsonSchema } from '@milpa/core';
import type { ValidationIssue } from '../../validation/validation-result.js';
import { describeStep } from '../describe-step.js';
import { compileArgsFreezer, freezeArgs } from '../freeze-args.js';
import type { PipelineCall } from '../pipeline-call.js';
import type { Stage, StageVerdict } from '../stage.js';

// Keywords that describe a schema without constraining the arguments.
const ANNOTATION_KEYWORDS: ReadonlySet<string> = new Set(['type', '$schema', '$id', '$comment', 'title', 'description', 'examples', 'default']);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** True when the schema constrains the arguments at all (properties, required or any other keyword). */
function hasConstraints(schema: JsonSchema): boolean {
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'properties') {
      if (isRecord(value) && Object.keys(value).length > 0) return true;
    } else if (key === 'required') {
      if (Array.isArray(value) && value.length > 0) return true;
    } else if (!ANNOTATION_KEYWORDS.has(key)) {
      return true;
    }
  }
  return false;
}

function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number' && Number.isInteger(value)) return 'integer';
  return typeof value;
}

function refuse(call: PipelineCall, issues: readonly ValidationIssue[], errors: readonly string[]): StageVerdict {
  call.errors = errors;
  return call.refuse(ToolErrorCode.VALIDATION_ERROR, errors.join('; '), 'validation_failed', {
    errors: issues.map((issue) => ({ path: issue.path, message: issue.message })),
  });
}

/**
 * Validates the prepared arguments against the tool's JSON Schema; a failure returns
 * `VALIDATION_ERROR` with `meta.errors` (path and message per problem) so a model can correct
 * itself. What passes becomes the call's arguments as a deeply frozen copy: every later stage,
 * every listener and the handler see exactly what was validated, and the caller's object is never
 * touched.
 */
export const validateStage: Stage = {
  name: 'validate',
  phase: 'gate',
  collaborator: 'schema validator',
  refusesOnAbort: true,
  run(call: PipelineCall): StageVerdict {
    const input = call.input;
    if (input === null) {
      const message = `Arguments must be an object, got ${describeType(call.rawArgs)}`;
      return refuse(call, [{ path: '', message }], [message]);
    }
    const entry = call.entry!;
    let validate = entry.validate;
    if (validate === null) {
      call.args = freezeArgs(input);
      return undefined;
    }
    if (validate === undefined) {
      // The first call compiles: registration only checked the schema (SchemaValidator.assertSchema),
      // which throws whenever the compile would, so this cannot fail. Should it ever, the call is
      // refused like any failing collaborator and the next call tries again.
      const compiled = call.services.validator.safeCompile(entry.definition.inputSchema);
      if (!compiled.ok) return call.failClosed('schema validator', compiled.error);
      validate = compiled.value;
      entry.validate = validate;
    }
    const validation = validate(input);
    if (!validation.valid) return refuse(call, validation.issues, validation.errors);
    let freeze = entry.freezeArgs;
    if (freeze === undefined) {
      freeze = compileArgsFreezer(entry.definition.inputSchema);
      entry.freezeArgs = freeze;
    }
    call.args = freeze(input);
    return undefined;
  },
  describe({ tool }) {
    return [
      hasConstraints(tool.inputSchema)
        ? describeStep('validate', 'guard', 'active', true, false, 'tool inputSchema (JSON Schema 2020-12); a failure returns VALIDATION_ERROR with meta.errors; what passes is frozen, so nothing later can change it')
        : describeStep('validate', 'guard', 'skipped', true, false, 'tool inputSchema is empty (no properties, required or constraints): nothing to validate'),
    ];
  },
};
