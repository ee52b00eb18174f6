/**
 * Text from elsewhere made safe to print on a terminal (issue 40 item 2): a log entry, a server's error or
 * a file name can carry escape sequences (`ESC[8m` hides every later line), carriage returns that
 * overwrite a line, or bidirectional overrides that reorder it. Each such character is shown as its code
 * (`\u001b`), so what was sent is still visible and nothing acts on the terminal.
 */

// C0 controls but tab, DEL, C1 controls, the line and paragraph separators, the bidirectional controls.
const UNPRINTABLE = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** `text` with every control character written as `\uXXXX`; for one line of output. */
export function toPrintable(text: string): string {
  return text.replace(UNPRINTABLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
