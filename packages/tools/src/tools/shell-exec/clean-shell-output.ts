// ANSI escape sequences: CSI (ESC [ … final byte, or the 8-bit CSI), OSC/DCS/PM/APC strings ended
// by BEL or ESC \, and the two-byte ESC sequences.
const ANSI = new RegExp(
  [
    '(?:\\u001b\\[|\\u009b)[0-?]*[ -/]*[@-~]',
    '(?:\\u001b[\\]PX^_]|[\\u0090\\u009d\\u009e\\u009f])[\\s\\S]*?(?:\\u0007|\\u001b\\\\|\\u009c)',
    '\\u001b[ -/]*[0-~]',
  ].join('|'),
  'g',
);
// Control characters except tab and newline, and the bidirectional overrides that can make text
// read differently from what it is.
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/**
 * Cleans program output for a model: ANSI escape sequences (colours, cursor moves, hyperlinks) are
 * removed, `\r\n` becomes `\n`, and every other control character except `\n` and `\t` is dropped.
 *
 * @example cleanShellOutput('\u001b[01;34msrc\u001b[0m\r\n') // 'src\n'
 */
export function cleanShellOutput(text: string): string {
  return text.replace(ANSI, '').replace(/\r\n/g, '\n').replace(CONTROL, '');
}
