/** One row of a list result. */
export interface ListRow {
  /** `item.id`, else the 1-based position. */
  readonly id: unknown;
  /** `item.nombre`, `item.name` or `item.title` (`nombre`, Spanish for name, is read too), else `'N/A'`. */
  readonly name: unknown;
  /** `item.available` when set, else null. */
  readonly available: boolean | null;
}

/** The items of a list result: an array as is, an object's values, nothing for anything else. */
export function readListItems(data: unknown): readonly unknown[] {
  if (Array.isArray(data)) return data;
  if (typeof data === 'object' && data !== null) return Object.values(data);
  return [];
}

/** The id, name and availability of the item at `index`. */
export function readListRow(item: unknown, index: number): ListRow {
  if (typeof item !== 'object' || item === null) return { id: index + 1, name: item ?? 'N/A', available: null };
  const row = item as Record<string, unknown>;
  const available = row['available'];
  return {
    id: row['id'] ?? index + 1,
    name: row['nombre'] ?? row['name'] ?? row['title'] ?? 'N/A',
    available: available === null || available === undefined ? null : Boolean(available),
  };
}
