/**
 * A page the build makes with parts left for the service to fill when it serves it (the search page:
 * core/pages/search-page.ts). The layout writes the marks (site/layouts/), the service fills them, so
 * every tag stays written in one place. The marks are private-use characters, which no escaping
 * changes and no page text holds; the page's own text (`main`) is put in last, so nothing in it is
 * ever read as a mark.
 */
import { escapeAttribute, escapeText } from './html.ts';

export const PAGE_SLOTS = {
  /** The page's title, in `<title>` and in the attributes that repeat it. */
  title: '\uE000page:title\uE000',
  /** The whole of the page's `<main>` content before its script. */
  main: '\uE000page:main\uE000',
  /** Around what a page holds only when it may be indexed (its canonical link). */
  indexed: ['\uE000page:indexed\uE000', '\uE000/page:indexed\uE000'],
  /** Around what a page holds only when it may not (its robots tag). */
  unindexed: ['\uE000page:unindexed\uE000', '\uE000/page:unindexed\uE000'],
} as const;

/** `shell` with its marks filled: the parts for `noindex` kept and the others dropped, the title, then `main`. */
export function fillPageSlots(shell: string, fill: { title: string; noindex: boolean; main: string }): string {
  const [keep, drop] = fill.noindex ? [PAGE_SLOTS.unindexed, PAGE_SLOTS.indexed] : [PAGE_SLOTS.indexed, PAGE_SLOTS.unindexed];
  const page = shell
    .split(drop[0])
    .map((part, i) => (i === 0 ? part : part.slice(part.indexOf(drop[1]) + drop[1].length)))
    .join('')
    .replaceAll(keep[0], '')
    .replaceAll(keep[1], '')
    // In an attribute (after its opening quote) the title is escaped as an attribute value, elsewhere as text.
    .replace(new RegExp(`(")?${PAGE_SLOTS.title}`, 'g'), (_, quote: string | undefined) =>
      quote === undefined ? escapeText(fill.title) : `"${escapeAttribute(fill.title)}`,
    );
  const at = page.indexOf(PAGE_SLOTS.main);
  return at === -1 ? page : page.slice(0, at) + fill.main + page.slice(at + PAGE_SLOTS.main.length);
}
