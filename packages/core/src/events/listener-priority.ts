/** Conventional listener priorities; higher runs first. Any integer is accepted. */
export const ListenerPriority = Object.freeze({
  /** Before everything else (e.g. a security veto). */
  CRITICAL: 500,
  /** Very early. */
  HIGHEST: 200,
  /** Early (e.g. a cache that short-circuits). */
  HIGH: 100,
  /** The default. */
  NORMAL: 0,
  /** Late. */
  LOW: -100,
  /** After everything else (e.g. metrics). */
  LOWEST: -200,
} as const);

/** One of the {@link ListenerPriority} values. */
export type ListenerPriority = (typeof ListenerPriority)[keyof typeof ListenerPriority];
