/** Conventional listener priorities; higher runs first. Any integer is accepted. */
export const ListenerPriority = {
  CRITICAL: 500,
  HIGHEST: 200,
  HIGH: 100,
  NORMAL: 0,
  LOW: -100,
  LOWEST: -200,
} as const;

/** One of the {@link ListenerPriority} values. */
export type ListenerPriority = (typeof ListenerPriority)[keyof typeof ListenerPriority];
