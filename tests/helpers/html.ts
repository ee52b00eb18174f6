/**
 * Reading the prerendered pages in tests without a browser: Astro writes plain, regular HTML (double-
 * quoted attributes, `&amp;` in URLs), so a few patterns find links, headings, meta tags and JSON-LD.
 * Tests that need layout, focus or colours use the real browser (helpers/browser.ts) instead.
 */
export function decodeEntities(text: string): string {
  return text
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_, dec: string) => String.fromCodePoint(Number(dec)))
    .replace(/&amp;/g, '&');
}

/** Every `href` of an `<a>` element, decoded, in document order. */
export function listLinks(html: string): string[] {
  return [...html.matchAll(/<a\b[^>]*?\shref="([^"]*)"/g)].map((m) => decodeEntities(m[1]!));
}

/** Heading levels in document order: [1, 2, 3, 3, 2…]. */
export function listHeadingLevels(html: string): number[] {
  return [...html.matchAll(/<h([1-6])\b/g)].map((m) => Number(m[1]));
}

/** `<meta name|property="…" content="…">` as a map (the last one wins). */
export function readMetaTags(html: string): Map<string, string> {
  const tags = new Map<string, string>();
  for (const m of html.matchAll(/<meta\s+(?:name|property)="([^"]+)"\s+content="([^"]*)"[^>]*>/g)) tags.set(m[1]!, decodeEntities(m[2]!));
  return tags;
}

export function readLinkHref(html: string, rel: string): string | undefined {
  const m = new RegExp(`<link\\s+rel="${rel}"\\s+href="([^"]*)"`).exec(html);
  return m ? decodeEntities(m[1]!) : undefined;
}

export function readTitle(html: string): string | undefined {
  const m = /<title>([^<]*)<\/title>/.exec(html);
  return m ? decodeEntities(m[1]!) : undefined;
}

/** Every JSON-LD block, parsed. */
export function readJsonLd(html: string): unknown[] {
  return [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) => JSON.parse(m[1]!));
}

/** Every `id` attribute, for checking that a link's fragment has a target. */
export function listIds(html: string): Set<string> {
  return new Set([...html.matchAll(/\sid="([^"]+)"/g)].map((m) => decodeEntities(m[1]!)));
}
