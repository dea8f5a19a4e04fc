/**
 * Fails a row's correctness check with `message` when `condition` is false.
 *
 * @throws Error when `condition` is false.
 */
export function assertCheck(condition: boolean, message: string): asserts condition {
  if (!condition) throw new Error(message);
}
