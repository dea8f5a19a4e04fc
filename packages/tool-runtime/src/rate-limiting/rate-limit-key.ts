function escapeSegment(segment: string): string {
  // Fast path: ordinary names need no escaping, so the usual key stays readable.
  // Stryker disable next-line StringLiteral: equivalent: includes('') is always true, which only skips the fast path, and the two replace()
  // calls leave a segment without ':' or '%' unchanged.
  if (!segment.includes(':') && !segment.includes('%')) return segment;
  return segment.replace(/%/g, '%25').replace(/:/g, '%3A');
}

/**
 * The rate-limit bucket key of a call: `channel:principal:tool`, with a null principal as an empty
 * segment (`web::tool`).
 *
 * Collision-safe while keeping the plain key for the usual `user:42`-style principals:
 * `%` and `:` are percent-encoded in the channel and the tool name only, so the key's first `:` ends
 * the channel, its last `:` starts the tool, and everything between is the principal, verbatim. A
 * principal such as `alice:admin` therefore can never share a bucket with another channel,
 * principal or tool.
 *
 * @example
 * rateLimitKey('mcp', 'user:42', 'search');   // 'mcp:user:42:search'
 * rateLimitKey('web', null, 'search');        // 'web::search'
 * rateLimitKey('web:x', 'y', 'search');       // 'web%3Ax:y:search'
 */
export function rateLimitKey(channel: string, principal: string | null, tool: string): string {
  return `${escapeSegment(channel)}:${principal ?? ''}:${escapeSegment(tool)}`;
}
