import { ToolErrorCode, ToolResult } from '@milpa/core';
import { messageOf } from '@milpa/core/kit';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { UpstreamUnavailableError } from '../upstream/upstream-unavailable-error.js';
import { UPSTREAM_ERROR_META_KEY, type UpstreamErrorKind } from './upstream-error-kind.js';

function failure(
  code: ToolErrorCode,
  message: string,
  upstream: string,
  kind: UpstreamErrorKind,
  extra: Record<string, unknown> = {},
): ToolResult {
  return ToolResult.failure(code, message, null, { upstream, [UPSTREAM_ERROR_META_KEY]: kind, ...extra });
}

/**
 * What a forwarded call that did not get a result answers: a typed failure (never a throw) whose
 * `meta.upstream_error` says why ({@link UpstreamErrorKind}) and whose message names the upstream
 * and the tool. An upstream that is restarting or reconnecting is `UPSTREAM_UNAVAILABLE` (the call
 * was not forwarded) with `retry_after_seconds`; a time-out or an abort is `TIMEOUT`; everything
 * else (e.g. a connection lost mid-call, when whether it ran is unknown) `INTERNAL_ERROR`.
 *
 * @example
 * toUpstreamFailure(new UpstreamUnavailableError('files', 2000), 'files', 'files_read', signal).meta.upstream_error; // 'unavailable'
 */
export function toUpstreamFailure(
  error: unknown,
  upstream: string,
  tool: string,
  signal: AbortSignal | undefined,
  retryAfterMs: number | null = null,
): ToolResult {
  if (error instanceof UpstreamUnavailableError) {
    return failure(ToolErrorCode.UPSTREAM_UNAVAILABLE, `${error.message} '${tool}' was not called.`, upstream, 'unavailable', {
      retry_after_seconds: Math.max(1, Math.ceil((error.retryAfterMs ?? 0) / 1000)),
    });
  }
  if (signal?.aborted === true) {
    return failure(
      ToolErrorCode.TIMEOUT,
      `The call to '${tool}' was cancelled before upstream '${upstream}' answered; the upstream was told to stop.`,
      upstream,
      'cancelled',
    );
  }
  if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
    return failure(
      ToolErrorCode.TIMEOUT,
      `Upstream '${upstream}' did not answer '${tool}' in time; the call was cancelled on it.`,
      upstream,
      'timeout',
    );
  }
  if (error instanceof McpError && error.code !== ErrorCode.ConnectionClosed) {
    return failure(
      ToolErrorCode.INTERNAL_ERROR,
      `Upstream '${upstream}' refused the call to '${tool}': ${error.message}`,
      upstream,
      'protocol_error',
      {
        upstream_code: error.code,
      },
    );
  }
  const retry = retryAfterMs === null ? {} : { retry_after_seconds: Math.max(1, Math.ceil(retryAfterMs / 1000)) };
  return failure(
    ToolErrorCode.INTERNAL_ERROR,
    `The connection to upstream '${upstream}' was lost during the call to '${tool}' (${messageOf(error)}); ` +
      'whether it ran is unknown. The gateway is reconnecting.',
    upstream,
    'disconnected',
    retry,
  );
}
