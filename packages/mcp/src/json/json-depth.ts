/** The deepest nesting of arrays and objects a JSON-RPC message may have by default. */
export const DEFAULT_MAX_JSON_DEPTH = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/**
 * True when the JSON text in `bytes` (UTF-8) nests arrays and objects deeper than `maxDepth`. One
 * pass over the bytes, without parsing or allocating, that stops at the first level too deep: run
 * it before `JSON.parse`, whose time and stack grow with the depth (two million levels under a
 * 4 MiB body stall a server for seconds). Brackets inside strings do not count. The text need not
 * be valid JSON: the parser still judges that.
 *
 * @example
 * exceedsJsonDepth(Buffer.from('[[[1]]]'), 2); // true
 */
export function exceedsJsonDepth(bytes: Uint8Array, maxDepth: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < bytes.length; index++) {
    const byte = bytes[index] as number;
    if (inString) {
      if (byte === BACKSLASH) index++;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) {
      inString = true;
    } else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
      depth++;
      if (depth > maxDepth) return true;
    } else if ((byte === CLOSE_BRACE || byte === CLOSE_BRACKET) && depth > 0) {
      depth--;
    }
  }
  return false;
}

/** The message JSON-RPC answers for a message nested too deep. */
export function tooDeepMessage(maxDepth: number): string {
  return `Invalid Request: the message nests arrays and objects deeper than ${maxDepth} levels`;
}

/**
 * Why `value` (a parsed request body or line) is not a JSON-RPC message or batch this server
 * accepts, or null when it is one: an empty batch, a member that is not an object, a `jsonrpc` other
 * than `"2.0"`, a `method` that is not a string, or an `id` that is not a string, a number or null
 * are each an Invalid Request (`-32600`) in JSON-RPC 2.0.
 */
export function invalidJsonRpcReason(value: unknown): string | null {
  if (Array.isArray(value)) {
    if (value.length === 0) return 'Invalid Request: an empty batch';
    for (const member of value) {
      const reason = invalidMessageReason(member);
      if (reason !== null) return reason;
    }
    return null;
  }
  return invalidMessageReason(value);
}

function invalidMessageReason(message: unknown): string | null {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return 'Invalid Request: a message must be an object';
  const record = message as Record<string, unknown>;
  if (record['jsonrpc'] !== '2.0') return 'Invalid Request: jsonrpc must be "2.0"';
  if ('method' in record && typeof record['method'] !== 'string') return 'Invalid Request: method must be a string';
  if ('id' in record) {
    const id = record['id'];
    if (id !== null && typeof id !== 'string' && !(typeof id === 'number' && Number.isFinite(id))) {
      return 'Invalid Request: id must be a string, a number or null';
    }
  }
  return null;
}
