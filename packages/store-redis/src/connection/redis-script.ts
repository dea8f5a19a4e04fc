import { createHash } from 'node:crypto';

/**
 * A Lua script the stores run on the Redis server, where it executes atomically: nothing else
 * touches Redis while it runs. Sent by its SHA-1 (`EVALSHA`) and, when the server does not know
 * it yet, in full (`EVAL`), which also caches it there.
 */
export class RedisScript {
  /** A short name for messages, e.g. `confirmation consume`. */
  readonly name: string;
  /** The Lua source. */
  readonly source: string;
  /** The SHA-1 of the source, as `EVALSHA` wants it. */
  readonly sha1: string;

  /** The script `source`, called `name` in messages. */
  constructor(name: string, source: string) {
    this.name = name;
    this.source = source;
    this.sha1 = createHash('sha1').update(source).digest('hex');
  }
}
