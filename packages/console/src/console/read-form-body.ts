import type { IncomingMessage } from 'node:http';

/** The most bytes a console form may have. */
export const MAX_FORM_BYTES = 64 * 1024;

/**
 * How many bytes of a refused, too large form are read and dropped so the browser, still sending,
 * receives the answer page; past this the connection is closed.
 */
const MAX_DRAINED_BYTES = 8 * 1024 * 1024;

/** The message of a form over {@link MAX_FORM_BYTES}. */
export const FORM_TOO_LARGE = 'The form is too large.';

/** What {@link readFormBody} read. */
export type FormBody =
  | { readonly ok: true; readonly fields: URLSearchParams }
  | { readonly ok: false; readonly status: 400 | 413 | 415; readonly message: string };

/**
 * Reads an `application/x-www-form-urlencoded` body of at most {@link MAX_FORM_BYTES}. A larger
 * one is refused (413) at once, and the rest of it is read and dropped (up to a bound), so the
 * answer reaches a browser that is still uploading instead of a reset connection.
 */
export function readFormBody(request: IncomingMessage): Promise<FormBody> {
  const type = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') {
    return Promise.resolve({ ok: false, status: 415, message: 'The console accepts forms only (application/x-www-form-urlencoded).' });
  }
  // A body another middleware already consumed arrives empty; the CSRF check then refuses it.
  if (request.readableEnded) return Promise.resolve({ ok: true, fields: new URLSearchParams() });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    request.on('data', (chunk: Buffer | string) => {
      size += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length;
      if (tooLarge) {
        if (size > MAX_DRAINED_BYTES) request.destroy();
        return;
      }
      if (size > MAX_FORM_BYTES) {
        tooLarge = true;
        chunks.length = 0;
        resolve({ ok: false, status: 413, message: FORM_TOO_LARGE });
        return;
      }
      chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    });
    request.on('end', () => resolve({ ok: true, fields: new URLSearchParams(Buffer.concat(chunks).toString('utf8')) }));
    request.on('error', () => resolve({ ok: false, status: 400, message: 'The form could not be read.' }));
    request.on('close', () => resolve({ ok: false, status: 400, message: 'The form could not be read.' }));
  });
}
