import { context as contextApi, type Context } from '@opentelemetry/api';
import type { AnyToolDefinition, ToolArgs, ToolInvocation } from '@milpa/core';

/**
 * Calls `tool.handler(args, invocation)` inside `telemetryContext` (the tool span's), so spans the
 * handler starts, also after an `await`, nest under the tool span. A context manager that fails
 * before the handler starts costs only the nesting: the handler then runs outside it, exactly
 * once. What the handler throws is thrown on, unchanged.
 */
export function runInTelemetryContext(
  telemetryContext: Context,
  tool: AnyToolDefinition,
  args: ToolArgs,
  invocation: ToolInvocation,
): unknown {
  let invoked = false;
  let threw = false;
  let thrown: unknown;
  let value: unknown;
  try {
    contextApi.with(telemetryContext, () => {
      invoked = true;
      try {
        value = tool.handler(args, invocation);
      } catch (error) {
        threw = true;
        thrown = error;
      }
    });
  } catch {
    // The context manager failed around the handler, not the handler itself (that is caught above).
  }
  if (!invoked) return tool.handler(args, invocation);
  if (threw) throw thrown;
  return value;
}
