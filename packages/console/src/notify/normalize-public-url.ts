import { MilpaError } from '@milpa/core';

/**
 * The console's public address as links start with it: an absolute `http:` or `https:` URL without
 * credentials, query or fragment, ending in `/`; null when none is given.
 *
 * @throws MilpaError `INVALID_ARGUMENT` for anything else.
 */
export function normalizePublicUrl(value: string | undefined): string | null {
  if (value === undefined) return null;
  const refuse = (why: string): MilpaError =>
    new MilpaError(`createApprovalConsole publicUrl ${why}, got ${JSON.stringify(String(value))}.`, { code: 'INVALID_ARGUMENT' });
  if (typeof value !== 'string') throw refuse('must be a string');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw refuse('must be an absolute URL such as https://ops.example.com/approvals/');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw refuse('must be an http or https URL');
  if (url.username !== '' || url.password !== '') throw refuse('must not carry credentials');
  if (url.search !== '' || url.hash !== '') throw refuse('must have no query or fragment');
  const text = url.toString();
  return text.endsWith('/') ? text : `${text}/`;
}
