/**
 * Stars, drawn one way everywhere: the average on the technician and service pages (star-graphic.astro),
 * the share image and the icon (images.ts). Five outlines, and over them the same five clipped at the
 * value rounded to the half star (roundStars, core/text/text-rules.ts: 4.36 draws 4½). A review's own
 * whole-star rating is text (formatStars in format.ts); the widget gets roundStars written into it
 * (site/pages/widget.js.ts) and writes whole stars as formatStars does (tests/site/stars.test.ts).
 */
import { roundStars } from '../../core/text/text-rules.ts';

/** One star in a 24×24 box. */
export const STAR_PATH = 'M12 2.5l2.9 6.1 6.6.8-4.9 4.6 1.3 6.6L12 17.3l-5.9 3.3 1.3-6.6L2.5 9.4l6.6-.8z';

export type StarRowOptions = {
  value: number;
  /** Each star's width and height, in the drawing's units. */
  size: number;
  /** Top-left corner of the row. */
  x?: number;
  y?: number;
  /** The clip path's id: unique within the document. */
  clipId: string;
  /** Attributes of the outline group and of the filled group (`class="off"`, `fill="#4a525c"`). */
  off: string;
  on: string;
};

/** The row of five stars as SVG elements (no `<svg>` around them). */
export function drawStarRow({ value, size, x = 0, y = 0, clipId, off, on }: StarRowOptions): string {
  const scale = size / 24;
  const paths = [0, 1, 2, 3, 4]
    .map((i) => `<path d="${STAR_PATH}" transform="translate(${x + i * size} ${y})${scale === 1 ? '' : ` scale(${scale})`}"></path>`)
    .join('');
  const at = x === 0 && y === 0 ? '' : ` x="${x}" y="${y}"`;
  const width = (roundStars(value) * size).toFixed(1);
  return `<defs><clipPath id="${clipId}"><rect${at} width="${width}" height="${size}"></rect></clipPath></defs><g ${off}>${paths}</g><g ${on} clip-path="url(#${clipId})">${paths}</g>`;
}
