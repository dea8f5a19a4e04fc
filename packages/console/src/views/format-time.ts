import { escapeHtml } from '../security/escape-html.js';

function span(ms: number): string {
  const seconds = Math.round(Math.abs(ms) / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 120) return `${minutes} min`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} h`;
  return `${Math.round(hours / 24)} d`;
}

/** A `<time>` element saying how long ago `date` was ("4 min ago"). */
export function formatAge(date: Date, now: number): string {
  return `<time datetime="${escapeHtml(date.toISOString())}">${escapeHtml(span(now - date.getTime()))} ago</time>`;
}

/** A `<time>` element saying when `date` comes ("in 12 min", "12 min ago"), or "never". */
export function formatDeadline(date: Date | null, now: number): string {
  if (date === null) return 'never';
  const delta = date.getTime() - now;
  const words = delta >= 0 ? `in ${span(delta)}` : `${span(delta)} ago`;
  return `<time datetime="${escapeHtml(date.toISOString())}">${escapeHtml(words)}</time>`;
}

/** A `<time>` element with the UTC date and time of `date`. */
export function formatInstant(date: Date | null): string {
  if (date === null) return '—';
  const iso = date.toISOString();
  return `<time datetime="${escapeHtml(iso)}">${escapeHtml(iso.slice(0, 19).replace('T', ' '))} UTC</time>`;
}
