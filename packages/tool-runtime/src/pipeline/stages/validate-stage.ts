import { isRecord } from '@milpa/core/kit';
import { ToolErrorCode, isMutatingCall, type JsonSchema, type ToolArgs } from '@milpa/core';
import type { ValidationIssue } from '../../validation/validation-result.js';
import { authorizeCall } from '../authorize-call.js';
import { describeStep } from '../describe-step.js';
import { compileArgsFreezer, freezeArgs } from '../freeze-args.js';
import type { STOP, Stage, StageVerdict, ResolvedCall } from '../stage.js';

// Keywords that describe a schema without constraining the arguments.
const ANNOTATION_KEYWORDS: ReadonlySet<string> = new Set([
  'type',
  '$schema',
  '$id',
  '$comment',
  'title',
  'description',
  'examples',
  'default',
]);

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

/**
 * Records what the validated arguments decide: whether the call mutates (a per-call function is
 * asked here, once, with the frozen arguments) and so whether it must be confirmed.
 */
function accept(call: ResolvedCall, args: ToolArgs): undefined {
  call.args = args;
  const tool = call.entry.definition;
  const mutating = isMutatingCall(tool, args);
  call.mutating = mutating;
  // Asked first without the per-call answer (a boolean flag decides it there); only a per-call
  // answer can narrow it.
  const gate = call.services.gate;
  call.needsConfirmation =
    gate.requiresConfirmation(call.context, tool) &&
    (typeof tool.mutating !== 'function' || gate.requiresConfirmation(call.context, tool, mutating));
  return undefined;
}

function refuseInvalid(call: ResolvedCall, issues: readonly ValidationIssue[], errors: readonly string[]): typeof STOP {
  // A message names the offending field by its path, and a path holds the caller's keys: a key may
  // be a secret (or shaped like one), so the messages and meta.errors are scrubbed like any refusal.
  const secrets = call.services.secretsOf(call.auditArgs, call.toolName);
  const redactor = call.services.audit.redactor;
  const scrub = (text: string): string => redactor.scrub(text, secrets);
  call.errors = errors.map(scrub);
  return call.refuse(ToolErrorCode.VALIDATION_ERROR, call.errors.join('; '), 'validation_failed', {
    errors: issues.map((issue) => ({ path: scrub(issue.path), message: scrub(issue.message) })),
  });
}

/**
 * Ends a call whose arguments failed. Authorization comes before argument details: the caller is
 * authorized first (the decision the authorize stage would make, asked once), and a caller it
 * refuses gets exactly that refusal, so invalid arguments never teach it the shape of a tool it may
 * not call. An authorized caller gets the validation error.
 */
function refuse(call: ResolvedCall, issues: readonly ValidationIssue[], errors: readonly string[]): StageVerdict {
  return authorizeCall(call, () => refuseInvalid(call, issues, errors));
}

/**
 * Validates the prepared arguments against the tool's JSON Schema; a failure returns
 * `VALIDATION_ERROR` with `meta.errors` (path and message per problem) so a model can correct
 * itself — to a caller the authorize stage would let through. A caller it would refuse gets that
 * `FORBIDDEN` refusal instead (same message, `tool.denied` event and audit record as for valid
 * arguments), with no detail of the arguments. What passes becomes the call's arguments as a deeply
 * frozen copy: every later stage, every listener and the handler see exactly what was validated,
 * and the caller's object is never touched. It is also where a per-call `mutating` function is asked,
 * once, with those frozen arguments; later stages read its answer from the call.
 */
export const validateStage: Stage = {
  name: 'validate',
  phase: 'gate',
  needs: 'tool',
  collaborator: 'schema validator',
  refusesOnAbort: true,
  run(call: ResolvedCall): StageVerdict {
    const input = call.input;
    if (input === null) {
      const message = `Arguments must be an object, got ${describeType(call.rawArgs)}`;
      return refuse(call, [{ path: '', message }], [message]);
    }
    const entry = call.entry;
    let validate = entry.validate;
    if (validate === null) return accept(call, freezeArgs(input));
    if (validate === undefined) {
      // The first call compiles: registration only checked the schema (SchemaValidator.assertSchema),
      // which throws whenever the compile would, so this cannot fail. Should it ever, the call is
      // refused like any failing collaborator (once authorization allows the caller) and the next
      // call tries again.
      const compiled = call.services.validator.safeCompile(entry.definition.inputSchema);
      // The compiler's message may quote the schema: only an authorized caller reads it.
      if (!compiled.ok) return authorizeCall(call, () => call.failClosed('schema validator', compiled.error));
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
    return accept(call, freeze(input));
  },
  describe({ tool }) {
    return [
      hasConstraints(tool.inputSchema)
        ? describeStep(
            'validate',
            'guard',
            'active',
            true,
            false,
            'tool inputSchema (JSON Schema 2020-12); a failure returns VALIDATION_ERROR with meta.errors to a caller authorize ' +
              'would allow, while a caller it would refuse gets the authorization refusal instead, with no argument details; ' +
              'what passes is frozen, so nothing later can change it',
          )
        : describeStep(
            'validate',
            'guard',
            'skipped',
            true,
            false,
            'tool inputSchema is empty (no properties, required or constraints): nothing to validate',
          ),
    ];
  },
};
