import { clipText } from '@milpa/core/kit';
import { mapStrings, type StringMapper } from './map-strings.js';

/** The longest key a log line quotes whole. */
const MAX_LOGGED_KEY = 100;
/** The longest string a log line quotes whole. */
const MAX_LOGGED_STRING = 1000;

/** Module-level, so bounding a call's arguments builds no closure. */
const BOUND: StringMapper<undefined> = {
  value: (text) => (text.length > MAX_LOGGED_STRING ? clipText(text, MAX_LOGGED_STRING) : text),
  key: (name) => (name.length > MAX_LOGGED_KEY ? clipText(name, MAX_LOGGED_KEY) : name),
};

/**
 * `value` (an already redacted view of a call's arguments) as a log line may carry it: every key
 * over 100 characters and every string over 1,000 cut, with its original length noted
 * (`kkkk… (4000000 characters)`), so what a caller sends can never make a log line of megabytes. The
 * same object back when nothing needed cutting; arrays and objects are copied only where they change.
 *
 * @example
 * boundForLog({ note: 'x'.repeat(5000) }); // { note: 'xxx… (5000 characters)' }
 */
export function boundForLog(value: unknown): unknown {
  return mapStrings(value, BOUND);
}
