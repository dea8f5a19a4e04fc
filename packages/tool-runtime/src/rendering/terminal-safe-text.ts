// C0 controls except tab and newline, DEL and the C1 block (which holds the 8-bit CSI, U+009B).
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

function escapeControl(character: string): string {
  return `\\x${character.charCodeAt(0).toString(16).padStart(2, '0')}`;
}

/**
 * Makes tool-supplied text safe to print on a terminal: control characters (ESC above all, which
 * starts ANSI sequences that can rewrite the screen, the window title or the clipboard) are shown
 * escaped, as `\x1b`, instead of being interpreted. Tabs and newlines stay; `\r\n` becomes `\n`.
 */
export function toTerminalSafeText(text: string): string {
  return text.replaceAll('\r\n', '\n').replace(CONTROL_CHARACTERS, escapeControl);
}
