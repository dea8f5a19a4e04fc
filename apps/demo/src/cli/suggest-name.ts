/** The edit distance (insertions, deletions, substitutions, adjacent swaps) between `left` and `right`. */
function editDistance(left: string, right: string): number {
  const rows = left.length + 1;
  const columns = right.length + 1;
  const table: number[][] = Array.from({ length: rows }, (_row, i) =>
    Array.from({ length: columns }, (_column, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i < rows; i += 1) {
    for (let j = 1; j < columns; j += 1) {
      const cost = left[i - 1] === right[j - 1] ? 0 : 1;
      const row = table[i] as number[];
      const above = table[i - 1] as number[];
      let best = Math.min((above[j] as number) + 1, (row[j - 1] as number) + 1, (above[j - 1] as number) + cost);
      if (i > 1 && j > 1 && left[i - 1] === right[j - 2] && left[i - 2] === right[j - 1]) {
        best = Math.min(best, ((table[i - 2] as number[])[j - 2] as number) + 1);
      }
      row[j] = best;
    }
  }
  return (table[rows - 1] as number[])[columns - 1] as number;
}

/**
 * The candidate `input` was most likely meant to be, or null when none is close: a candidate that
 * contains it (or is contained in it), else the nearest by edit distance within a third of its
 * length (at least 2). Case is ignored.
 *
 * @example
 * suggestName('list_note', ['list_notes', 'get_note']); // 'list_notes'
 * suggestName('frobnicate', ['list_notes']);            // null
 */
export function suggestName(input: string, candidates: readonly string[]): string | null {
  const wanted = input.toLowerCase();
  if (wanted === '') return null;
  let best: string | null = null;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    const name = candidate.toLowerCase();
    const distance = name.includes(wanted) || wanted.includes(name) ? 0.5 : editDistance(wanted, name);
    const limit = Math.max(2, Math.floor(name.length / 3));
    if (distance <= limit && distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}
