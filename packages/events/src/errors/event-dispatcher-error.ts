import { MilpaError } from '@milpa/core';

/** The machine-readable reasons an {@link EventDispatcherError} is thrown. */
export type EventDispatcherErrorCode =
  | 'INVALID_EVENT_NAME'
  | 'INVALID_LISTENER'
  | 'INVALID_PRIORITY'
  | 'INVALID_OPTIONS'
  | 'SLOT_IN_ASYNC_DISPATCH';

/**
 * Thrown by `EventDispatcher` for a programmer fault: a malformed event name or pattern, a listener
 * that is not a function, a priority that is not a finite number, bad constructor options, or an
 * `InterceptionSlot` handed to the fire-and-forget `notify()`. The dispatcher changes nothing when
 * it throws.
 *
 * @example
 * try {
 *   dispatcher.subscribe('user.**', listener);
 * } catch (error) {
 *   if (MilpaError.isInstance(error)) console.log(error.code); // 'INVALID_EVENT_NAME'
 * }
 */
export class EventDispatcherError extends MilpaError {
  /** Why the dispatcher refused the call. */
  declare readonly code: EventDispatcherErrorCode;

  constructor(message: string, code: EventDispatcherErrorCode) {
    super(message, { code });
  }
}
