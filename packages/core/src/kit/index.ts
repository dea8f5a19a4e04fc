// @milpa/core/kit: the small helpers Milpa's own packages share, so each has one home.
// Canonical JSON, deep freezing, record checks and the text of a thrown value.

export { canonicalJson } from './canonical-json.js';
export { deepFreeze } from './deep-freeze.js';
export { isRecord } from './is-record.js';
export { messageOf } from './message-of.js';
