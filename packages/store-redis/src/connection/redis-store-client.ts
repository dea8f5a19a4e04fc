/**
 * The part of a Redis client the stores use: a connected client from the official `redis` package
 * (`createClient()` after `connect()`) fits it as it is. Declared here so the published types do
 * not depend on the client's own.
 */
export interface RedisStoreClient {
  /** False once the client is closed (or before it was connected). */
  readonly isOpen: boolean;
  /** Sends one command, e.g. `['GET', 'milpa:approval:abc']`, and resolves with Redis's reply. */
  sendCommand(args: readonly string[], options?: { readonly abortSignal?: AbortSignal }): Promise<unknown>;
}
