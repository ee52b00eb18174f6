/**
 * The `<iframe>` form of the widget (/embed/), for pages that allow no script. In a frame the widget
 * gives every part a fixed number of lines (a title, an author line and "Read all" one line each, a
 * review's text three), so the frame's height depends on `count` only, at any width from 320 px:
 * the heading, the rating and the histogram, then one block per review. Measured in Chromium on
 * reviews whose every part overflows (tests/site/embed-frame.test.ts keeps these true for every count).
 */
import { escapeAttribute } from '../../core/pages/html.ts';
import { PATHS } from '../../core/urls.ts';

/** The page without reviews (heading, rating, histogram, "Read all"), measured at 246 px, with a margin. */
const BASE_HEIGHT = 252;
/** Each review, measured at 142.75 px, with a margin. */
const REVIEW_HEIGHT = 144;
export const DEFAULT_COUNT = 3;
export const MAX_COUNT = 10;

/** The frame height, in CSS pixels, that shows the widget with `count` reviews whole. */
export function getFrameHeight(count: number): number {
  return BASE_HEIGHT + REVIEW_HEIGHT * Math.min(MAX_COUNT, Math.max(0, count));
}

/**
 * The `<iframe>` snippet for the owner's page, with the service's real address (`base`, the PUBLIC_URL);
 * `title` names the frame for screen readers, in the site's language (the widget's heading).
 */
export function renderFrameSnippet(base: string, title: string, count = DEFAULT_COUNT): string {
  return `<iframe src="${base}${PATHS.embed}?count=${count}&theme=auto" title="${escapeAttribute(title)}" width="400" height="${getFrameHeight(count)}" style="border:0;max-width:100%"></iframe>`;
}

/**
 * The one line of script that lets the frame take its content's height (the /embed/ page posts it,
 * site/public/embed/embed.js): only messages from the service's origin, only to the frame that sent them.
 */
export function renderFrameSizerSnippet(base: string): string {
  return `<script>addEventListener('message', (e) => { if (e.origin === new URL('${base}').origin && e.data?.type === 'reviews-widget:height') for (const f of document.querySelectorAll('iframe')) if (f.contentWindow === e.source) f.style.height = e.data.height + 'px'; });</script>`;
}

/** The script form: two lines, the script and the element. */
export function renderWidgetSnippet(base: string, count = DEFAULT_COUNT): string {
  return `<script src="${base}${PATHS.widget}" async></script>\n<reviews-widget count="${count}" theme="auto"></reviews-widget>`;
}

/** The height for every `count`, 0 to 10, for /developers/. */
export function listFrameHeights(): { count: number; height: number }[] {
  return Array.from({ length: MAX_COUNT + 1 }, (_, count) => ({ count, height: getFrameHeight(count) }));
}
