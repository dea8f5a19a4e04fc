import { MilpaError } from '@milpa/core';

/** Options of a {@link WebhookDeliveryError}. */
export interface WebhookDeliveryErrorOptions {
  /** How many requests were sent. */
  readonly attempts: number;
  /** The last HTTP status received, or null when none was (network error, timeout). */
  readonly status: number | null;
  /** The last network error or timeout, if any. */
  readonly cause?: unknown;
}

/**
 * Rejected by a `webhookNotifier` when a notification could not be delivered: the receiver
 * answered a status that is not retried (a 4xx other than 429, a redirect), or every attempt
 * failed. Code `WEBHOOK_DELIVERY_FAILED`. The message names the receiver's origin only, never its
 * full address (webhook addresses often hold a secret).
 */
export class WebhookDeliveryError extends MilpaError {
  /** How many requests were sent. */
  readonly attempts: number;
  /** The last HTTP status received, or null. */
  readonly status: number | null;

  /** Creates the error. */
  constructor(message: string, options: WebhookDeliveryErrorOptions) {
    super(message, { code: 'WEBHOOK_DELIVERY_FAILED', cause: options.cause });
    this.attempts = options.attempts;
    this.status = options.status;
  }
}
