/**
 * Text for XML 1.0 documents. XML 1.0 §2.2 allows only tab, LF, CR, U+0020–U+D7FF, U+E000–U+FFFD and
 * U+10000–U+10FFFF; anything else (other C0 controls, U+FFFE/U+FFFF, a surrogate that is not part of a
 * pair) makes the whole document ill-formed, so it is dropped rather than escaped: a character reference
 * to it is just as illegal (§4.1, "Well-formedness constraint: Legal Character").
 */

// With the `u` flag a well-formed surrogate pair is one code point, so \p{Cs} matches only lone halves.
const FORBIDDEN_XML_CHARS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF\p{Cs}]/gu;

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
  // A literal CR is turned into LF by every parser (§2.11) and tab/LF inside an attribute into a space
  // (§3.3.3); as references they survive both.
  '\r': '&#13;',
  '\t': '&#9;',
  '\n': '&#10;',
};

export function stripForbiddenXmlChars(text: string): string {
  return text.replace(FORBIDDEN_XML_CHARS, '');
}

/** Text safe inside element content. Newlines and tabs stay literal so the text reads naturally. */
export function escapeXmlText(text: string): string {
  return stripForbiddenXmlChars(text).replace(/[&<>"'\r]/g, (c) => ESCAPES[c] ?? c);
}

/** Text safe inside a double- or single-quoted attribute value. */
export function escapeXmlAttribute(text: string): string {
  return stripForbiddenXmlChars(text).replace(/[&<>"'\r\t\n]/g, (c) => ESCAPES[c] ?? c);
}
