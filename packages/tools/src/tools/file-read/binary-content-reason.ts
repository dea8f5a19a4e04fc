/** How many bytes from the start of a file are looked at to tell text from binary. */
export const BINARY_SNIFF_BYTES = 8192;

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** Bytes at the end of `sample` that begin a UTF-8 sequence `sample` cuts short (0 to 3). */
export function incompleteUtf8Tail(sample: Uint8Array): number {
  for (let back = 1; back <= Math.min(3, sample.length); back += 1) {
    const byte = sample[sample.length - back] as number;
    if ((byte & 0xc0) === 0x80) continue; // a continuation byte: look further back for the lead byte
    const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return length > back ? back : 0;
  }
  return 0;
}

/**
 * Why `sample` (the first bytes of a file) looks binary, or null for text: a NUL byte, bytes that
 * are not valid UTF-8, or mostly control characters. With `complete` false the sample is a prefix,
 * so a character cut at its end is not held against it.
 */
export function binaryContentReason(sample: Uint8Array, complete: boolean): string | null {
  const head = sample.subarray(0, BINARY_SNIFF_BYTES);
  if (head.includes(0)) return 'it contains NUL bytes';
  const cut = complete && head.length === sample.length ? 0 : incompleteUtf8Tail(head);
  let text: string;
  try {
    text = strictUtf8.decode(head.subarray(0, head.length - cut));
  } catch {
    return 'it is not valid UTF-8 text';
  }
  let control = 0;
  for (const character of text) {
    const code = character.codePointAt(0) as number;
    // Tab, line feed, vertical tab, form feed, carriage return and escape appear in real text files.
    if ((code < 0x20 && (code < 0x09 || code > 0x0d) && code !== 0x1b) || code === 0x7f) control += 1;
  }
  if (text.length > 0 && control / text.length > 0.1) return 'it is mostly control characters';
  return null;
}
