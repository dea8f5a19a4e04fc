/**
 * A commander option collector for `--scope`: each occurrence adds its value, a comma list adds
 * each item, blanks are dropped.
 *
 * @example
 * collectScopes('notes:read,notes:write', ['almanac:read']); // ['almanac:read', 'notes:read', 'notes:write']
 */
export function collectScopes(value: string, previous: readonly string[] | undefined): string[] {
  const added = value
    .split(',')
    .map((scope) => scope.trim())
    .filter((scope) => scope !== '');
  return [...(previous ?? []), ...added];
}
