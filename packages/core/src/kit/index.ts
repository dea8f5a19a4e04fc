// @milpa/core/kit: the small helpers Milpa's own packages share, so each has one home.
// Canonical JSON, deep freezing, record checks, the text of a thrown value and text cut for logs.

export { canonicalJson } from './canonical-json.js';
export { deepFreeze } from './deep-freeze.js';
export { isRecord } from './is-record.js';
export { messageOf } from './message-of.js';
export { clipText } from './clip-text.js';
