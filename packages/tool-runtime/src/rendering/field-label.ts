/** A data key as a readable label: `_` becomes a space and the first letter is uppercased (`nombre_completo` → `Nombre completo`). */
export function toFieldLabel(key: string): string {
  const spaced = key.replaceAll('_', ' ');
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}
