import { ToolResult, Type, defineTool, type AnyToolDefinition } from '@milpa/core';

/** A digest the {@link DigestMailer} queued. */
export interface QueuedDigest {
  /** Sequential id, `digest-1`, `digest-2`, … */
  readonly message_id: string;
  /** The recipient. */
  readonly to: string;
  /** How many notes it summarises. */
  readonly notes: number;
}

/** Keys the simulated provider accepts start with this. */
const KEY_PREFIX = 'sk-demo-';

/**
 * A simulated mail provider behind `send_digest`, a tool that takes a secret: the caller passes an
 * `api_key`, which the audit trail shows as `***REDACTED***`. Nothing leaves the process; digests
 * are queued in memory.
 *
 * @example
 * const mailer = new DigestMailer(() => notes.size);
 * registry.register(mailer.sendTool());
 */
export class DigestMailer {
  readonly #outbox: QueuedDigest[] = [];
  readonly #countNotes: () => number;

  /** `countNotes` tells the mailer how many notes a digest covers. */
  constructor(countNotes: () => number) {
    this.#countNotes = countNotes;
  }

  /** The digests queued so far, oldest first. */
  get outbox(): readonly QueuedDigest[] {
    return [...this.#outbox];
  }

  /** The mutating `send_digest` tool (scope `digest:send`). */
  sendTool(): AnyToolDefinition {
    return defineTool({
      name: 'send_digest',
      description: 'Email a digest of the notes through the (simulated, offline) mail provider.',
      input: Type.Object({
        to: Type.String({ format: 'email', description: 'Recipient address.' }),
        api_key: Type.String({ minLength: 8, description: `The mail provider key (demo keys start with "${KEY_PREFIX}").` }),
      }),
      routing: {
        intents: ['email a digest', 'send a summary'],
        domains: ['email', 'mail', 'digest'],
        tags: ['email', 'mail', 'send', 'summary', 'newsletter'],
        examples: ['Email me a digest of my notes', 'Send the weekly summary to ana@example.com'],
      },
      scopes: ['digest:send'],
      mutating: true,
      handler: ({ to, api_key: apiKey }) => {
        // The message never echoes the key: a wrong key is reported without repeating it.
        if (!apiKey.startsWith(KEY_PREFIX))
          return ToolResult.failure('UNAUTHORIZED', 'The mail provider rejected the API key.', { field: 'api_key' });
        const digest: QueuedDigest = { message_id: `digest-${this.#outbox.length + 1}`, to, notes: this.#countNotes() };
        this.#outbox.push(digest);
        return ToolResult.success(digest, `Digest queued for ${to}`);
      },
    });
  }
}
