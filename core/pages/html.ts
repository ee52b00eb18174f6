/**
 * HTML written as Astro writes it (astro/dist/runtime/server: `escapeHTML`, `addAttribute`), so a part
 * of a page made here (the search page's results, core/pages/search-page.ts; every review card,
 * core/pages/review-card.ts) is byte for byte what the same markup in an `.astro` file gives:
 * text escapes `& < > ' "`; an attribute value escapes `&` and `"` only; `true` writes a boolean
 * attribute bare, `false`, `null` and `undefined` write nothing, and an empty string writes the name alone.
 * Astro's compressed output has no white space between tags, and neither has what is written here.
 */
import { fill } from '../i18n/fill.ts';

const TEXT_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', "'": '&#39;', '"': '&quot;' };

/** Text content, escaped. */
export function escapeText(text: string | number): string {
  return String(text).replace(/[&<>'"]/g, (c) => TEXT_ESCAPES[c]!);
}

/** An attribute value's text, escaped (between double quotes). */
export function escapeAttribute(value: string | number): string {
  return String(value).replaceAll('&', '&amp;').replaceAll('"', '&quot;');
}

/** The attributes of a start tag, each with its leading space, in the given order. */
export function writeAttributes(attributes: Readonly<Record<string, string | number | boolean | null | undefined>>): string {
  let out = '';
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    out += value === true || value === '' ? ` ${name}` : ` ${name}="${escapeAttribute(value)}"`;
  }
  return out;
}

/** Markup written as it stands by fillHtml (a link, a `<bdi>` the page built itself). */
export type Html = { readonly html: string };

export function rawHtml(html: string): Html {
  return { html };
}

/**
 * A catalogue's HTML source (core/i18n/) with each `{name}` filled: text escaped as Astro escapes an
 * expression, markup (rawHtml) as it stands. So a sentence keeps its links and isolated names wherever
 * the language puts them, and writes the same bytes the template wrote.
 */
export function fillHtml(template: string, params: Readonly<Record<string, string | number | Html>> = {}): string {
  return fill(template, Object.fromEntries(Object.entries(params).map(([name, value]) => [name, typeof value === 'object' ? value.html : escapeText(value)])));
}
