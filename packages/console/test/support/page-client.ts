import { send, type Answer } from './console-fixture.js';

/** A signed-in client that keeps the CSRF cookie and reads the form token from the last page. */
export class PageClient {
  cookie = '';
  csrf = '';
  readonly #url: string;
  readonly #token: string | null;

  constructor(url: string, token: string | null) {
    this.#url = url;
    this.#token = token;
  }

  #headers(extra: Record<string, string> = {}): Record<string, string> {
    return {
      ...(this.#token === null ? {} : { Authorization: `Bearer ${this.#token}` }),
      ...(this.cookie === '' ? {} : { Cookie: this.cookie }),
      ...extra,
    };
  }

  async get(path: string): Promise<Answer> {
    const answer = await send(`${this.#url}${path}`, { headers: this.#headers() });
    const setCookie = answer.headers['set-cookie'];
    const csrfCookie = (Array.isArray(setCookie) ? setCookie : []).find((value) => value.startsWith('milpa_console_csrf='));
    if (csrfCookie !== undefined) this.cookie = csrfCookie.split(';')[0]!;
    const token = /name="_csrf" value="([^"]+)"/.exec(answer.body);
    if (token !== null) this.csrf = token[1]!;
    return answer;
  }

  post(path: string, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<Answer> {
    return send(`${this.#url}${path}`, {
      method: 'POST',
      headers: this.#headers({ 'Content-Type': 'application/x-www-form-urlencoded', ...headers }),
      body: new URLSearchParams(fields).toString(),
    });
  }
}
