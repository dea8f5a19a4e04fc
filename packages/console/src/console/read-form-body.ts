import type { IncomingMessage } from 'node:http';

/** The most bytes a console form may have. */
export const MAX_FORM_BYTES = 64 * 1024;

/** What {@link readFormBody} read. */
export type FormBody =
  | { readonly ok: true; readonly fields: URLSearchParams }
  | { readonly ok: false; readonly status: 400 | 413 | 415; readonly message: string };

/** Reads an `application/x-www-form-urlencoded` body of at most {@link MAX_FORM_BYTES}. */
export async function readFormBody(request: IncomingMessage): Promise<FormBody> {
  const type = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') {
    return { ok: false, status: 415, message: 'The console accepts forms only (application/x-www-form-urlencoded).' };
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += buffer.length;
    if (size > MAX_FORM_BYTES) return { ok: false, status: 413, message: 'The form is too large.' };
    chunks.push(buffer);
  }
  // A body another middleware already consumed arrives empty; the CSRF check then refuses it.
  return { ok: true, fields: new URLSearchParams(Buffer.concat(chunks).toString('utf8')) };
}
