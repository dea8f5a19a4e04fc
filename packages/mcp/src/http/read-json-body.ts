import type { IncomingMessage } from 'node:http';

/** The outcome of reading a JSON request body. */
export type JsonBody =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly status: 400 | 413; readonly message: string };

/**
 * Reads and parses a JSON body of at most `maxBytes`. A larger body is refused (`413`) as soon as
 * its declared or received size exceeds the bound, before anything is parsed.
 */
export async function readJsonBody(request: IncomingMessage, maxBytes: number): Promise<JsonBody> {
  const tooLarge = { ok: false, status: 413, message: `Request body exceeds ${maxBytes} bytes` } as const;
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) return tooLarge;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) return tooLarge;
    chunks.push(chunk);
  }
  try {
    return { ok: true, value: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown };
  } catch {
    return { ok: false, status: 400, message: 'Parse error: the body is not valid JSON' };
  }
}
