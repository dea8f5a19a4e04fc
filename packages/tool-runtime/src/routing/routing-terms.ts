import { ROUTING_STOP_WORDS } from './routing-stop-words.js';

const MIN_WORD_LENGTH = 3;
const NON_WORD = /[^\p{L}\p{N}]+/u;
// camelCase and PascalCase split into words, so a tool named `deleteNote` or `HTTPRequest`
// carries the same words as `delete_note` and `http_request`.
const HUMP = /(?<=\p{Ll})(?=\p{Lu})|(?<=\p{Lu})(?=\p{Lu}\p{Ll})/u;

/**
 * The singular the router compares a word by: `ies` becomes `y`, and a trailing `s` is cut, on
 * words longer than three characters. It is a rule, not a dictionary (`status` becomes `statu`),
 * and it is applied to messages and routing hints alike, so both sides still agree.
 */
function singular(word: string): string {
  if (word.length <= MIN_WORD_LENGTH) return word;
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.endsWith('s')) return word.slice(0, -1);
  return word;
}

/**
 * The words of `text` the router matches on, in order and with repeats: lower-cased, split on
 * anything but letters and digits and at camelCase humps, without words shorter than three
 * characters or stop words, each reduced to its singular.
 *
 * @example
 * routingTerms('List the categories of my editors'); // ['list', 'category', 'editor']
 */
export function routingTerms(text: string): string[] {
  const terms: string[] = [];
  for (const token of text.split(NON_WORD)) if (token !== '') termsOfToken(token, terms);
  return terms;
}

/**
 * How often each of {@link routingTerms}' words occurs in `text`. Each distinct token is read
 * once, so a long message that repeats its words costs little more than its vocabulary.
 *
 * @example
 * countRoutingTerms('notes, more notes'); // Map { 'note' => 2 }
 */
export function countRoutingTerms(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  const known = new Map<string, readonly string[]>();
  for (const token of text.split(NON_WORD)) {
    if (token === '') continue;
    let terms = known.get(token);
    if (terms === undefined) {
      const found: string[] = [];
      termsOfToken(token, found);
      terms = found;
      known.set(token, terms);
    }
    for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
  }
  return counts;
}

function termsOfToken(token: string, into: string[]): void {
  const lower = token.toLowerCase();
  // Most words are lower case already; only the others can have humps to split at.
  if (lower === token) addTerm(lower, into);
  else for (const part of token.split(HUMP)) addTerm(part.toLowerCase(), into);
}

function addTerm(word: string, into: string[]): void {
  if (word.length < MIN_WORD_LENGTH || ROUTING_STOP_WORDS.has(word)) return;
  into.push(singular(word));
}
