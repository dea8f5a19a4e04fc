/** Nanoseconds as microseconds with three significant digits (`0.412`, `12.3`, `1,234`). */
export function formatMicros(nanoseconds: number): string {
  const micros = nanoseconds / 1000;
  if (micros >= 1000) return Math.round(micros).toLocaleString('en-US');
  if (micros >= 100) return micros.toFixed(0);
  if (micros >= 10) return micros.toFixed(1);
  if (micros >= 1) return micros.toFixed(2);
  return micros.toFixed(3);
}

/** A ratio as `×1.85`, `×23`, `×1,234`. */
export function formatRatio(ratio: number): string {
  if (!Number.isFinite(ratio)) return '—';
  if (ratio >= 1000) return `×${Math.round(ratio).toLocaleString('en-US')}`;
  if (ratio >= 100) return `×${ratio.toFixed(0)}`;
  if (ratio >= 10) return `×${ratio.toFixed(1)}`;
  return `×${ratio.toFixed(2)}`;
}

/** Milliseconds with one decimal. */
export function formatMillis(milliseconds: number): string {
  return `${milliseconds.toFixed(1)} ms`;
}

/** Bytes as `1,234 B`. */
export function formatBytes(bytes: number): string {
  return `${Math.round(bytes).toLocaleString('en-US')} B`;
}
