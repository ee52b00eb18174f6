/**
 * Text from elsewhere made safe, in the two places it goes.
 *
 * On a terminal (issue 40 item 2): a log entry, a server's error or a file name can carry escape
 * sequences (`ESC[8m` hides every later line), carriage returns that overwrite a line, or bidirectional
 * overrides that reorder it. Each such character is shown as its code (`\u001b`), so what was sent is
 * still visible and nothing acts on the terminal.
 *
 * Into the content (issue 43 item 5): a review's words as Google sends them keep their
 * line breaks and tabs and lose every other control character (C0, DEL, C1) and any unpaired UTF-16
 * surrogate, which no JSON, HTML or XML file we publish can carry faithfully.
 */

// C0 controls but tab, DEL, C1 controls, the line and paragraph separators, the bidirectional controls.
const UNPRINTABLE = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

// C0 controls but tab and line feed, DEL, C1 controls; with the `u` flag \p{Cs} matches only a lone surrogate half.
const NOT_TEXT = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\p{Cs}]/gu;

/** `text` with every control character written as `\uXXXX`; for one line of output. */
export function toPrintable(text: string): string {
  return text.replace(UNPRINTABLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** `text` as a review may hold it: CRLF and CR become line feeds, other controls and lone surrogates go. */
export function removeControlCharacters(text: string): string {
  return text.replace(/\r\n?/g, '\n').replace(NOT_TEXT, '');
}
