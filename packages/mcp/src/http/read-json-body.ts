import type { IncomingMessage } from 'node:http';
import { DEFAULT_MAX_JSON_DEPTH, exceedsJsonDepth, tooDeepMessage } from '../json/json-depth.js';

/** The outcome of reading a JSON request body. */
export type JsonBody =
  | { readonly ok: true; readonly value: unknown }
  | {
      readonly ok: false;
      readonly status: 400 | 408 | 413;
      /** The JSON-RPC error code: `-32700` for text that is not JSON, `-32600` for JSON nested too deep, `-32000` otherwise. */
      readonly code: -32700 | -32600 | -32000;
      readonly message: string;
    };

/**
 * Reads and parses a JSON body of at most `maxBytes`, received within `timeoutMs`. A larger body
 * is refused (`413`) as soon as its declared or received size exceeds the bound, before anything
 * is parsed; a body still incomplete after `timeoutMs` (a slow or half-sent request) is refused
 * with `408`. Either way the rest of the body is not read: answer with `Connection: close`. A body
 * nesting arrays and objects deeper than `maxDepth` is refused (`400`, `-32600`) before it is parsed.
 */
export function readJsonBody(
  request: IncomingMessage,
  maxBytes: number,
  timeoutMs: number,
  maxDepth = DEFAULT_MAX_JSON_DEPTH,
): Promise<JsonBody> {
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) return Promise.resolve(tooLarge(maxBytes));
  return new Promise<JsonBody>((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (outcome: JsonBody): void => {
      clearTimeout(timer);
      request.off('data', onData);
      request.off('end', onEnd);
      request.off('error', onAbort);
      request.off('aborted', onAbort);
      resolve(outcome);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > maxBytes) {
        request.pause();
        finish(tooLarge(maxBytes));
      } else {
        chunks.push(chunk);
      }
    };
    const onEnd = (): void => {
      const body = Buffer.concat(chunks);
      if (exceedsJsonDepth(body, maxDepth)) {
        finish({ ok: false, status: 400, code: -32600, message: tooDeepMessage(maxDepth) });
        return;
      }
      try {
        finish({ ok: true, value: JSON.parse(body.toString('utf8')) as unknown });
      } catch {
        finish({ ok: false, status: 400, code: -32700, message: 'Parse error: the body is not valid JSON' });
      }
    };
    const onAbort = (): void => finish({ ok: false, status: 400, code: -32000, message: 'The request body was not received completely' });
    const timer = setTimeout(() => {
      request.pause();
      finish({ ok: false, status: 408, code: -32000, message: `Request body not received within ${timeoutMs} ms` });
    }, timeoutMs);
    request.on('data', onData);
    request.once('end', onEnd);
    request.once('error', onAbort);
    request.once('aborted', onAbort);
  });
}

function tooLarge(maxBytes: number): JsonBody {
  return { ok: false, status: 413, code: -32000, message: `Request body exceeds ${maxBytes} bytes` };
}
