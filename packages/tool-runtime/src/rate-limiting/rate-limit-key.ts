function escapeSegment(segment: string): string {
  // Fast path: ordinary names keep the seed's plain key.
  if (!segment.includes(':') && !segment.includes('%')) return segment;
  return segment.replace(/%/g, '%25').replace(/:/g, '%3A');
}

/**
 * The rate-limit bucket key of a call: `channel:principal:tool`, with a null principal as an empty
 * segment (`web::tool`). `%` and `:` inside a segment are percent-encoded, so a principal such as
 * `alice:delete` can never share a bucket with another channel, principal or tool (DESIGN 12);
 * ordinary values produce exactly the seed's key.
 *
 * @example
 * rateLimitKey('mcp', 'user:42', 'search');  // 'mcp:user%3A42:search'
 * rateLimitKey('web', null, 'search');       // 'web::search'
 */
export function rateLimitKey(channel: string, principal: string | null, tool: string): string {
  return `${escapeSegment(channel)}:${principal === null ? '' : escapeSegment(principal)}:${escapeSegment(tool)}`;
}
