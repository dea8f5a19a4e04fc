import { send, type Answer } from './console-fixture.js';
import { encodeForm } from './form-fields.js';
import { PageClient } from './page-client.js';

/**
 * A signed-in approver's browser for raw HTTP tests: keeps the CSRF cookie, posts fields in order
 * as a form does, and records every body and redirect it received (for "never shown" checks).
 */
export class RecordingClient {
  readonly received: string[];
  readonly #page: PageClient;
  readonly #url: string;
  readonly #token: string;

  private constructor(url: string, token: string, received: string[]) {
    this.#url = url;
    this.#token = token;
    this.#page = new PageClient(url, token);
    this.received = received;
  }

  /** An approver signed in with `token` who has opened the pending list; bodies go to `received`. */
  static async signIn(url: string, token: string, received: string[] = []): Promise<RecordingClient> {
    const client = new RecordingClient(url, token, received);
    await client.get('/approvals/');
    return client;
  }

  /** Gets `path`. */
  async get(path: string): Promise<Answer> {
    return this.#record(await this.#page.get(path));
  }

  /** Posts `fields` (pairs in order, or a record) as an urlencoded form. */
  async post(path: string, fields: readonly [string, string][] | Record<string, string>): Promise<Answer> {
    const pairs = Array.isArray(fields) ? fields : Object.entries(fields);
    const answer = await send(`${this.#url}${path}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${this.#token}`, Cookie: this.#page.cookie, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: encodeForm(pairs),
    });
    return this.#record(answer);
  }

  /** The CSRF token of the last page. */
  get csrf(): string {
    return this.#page.csrf;
  }

  #record(answer: Answer): Answer {
    this.received.push(answer.body, String(answer.headers.location ?? ''));
    return answer;
  }
}
