/**
 * /widget.js, the `<reviews-widget>` script for other sites (site/widget/widget.js), with the site's one
 * rule for drawing an average as stars written into it: the function the pages, the share image and
 * the embed page use (roundStars, core/insights/verdicts.ts), so the widget cannot round another way.
 */
import source from '../widget/widget.js?raw';
import { roundStars } from '../../core/insights/verdicts.ts';

const MARKER = '/* roundStars */';

export function GET(): Response {
  if (!source.includes(MARKER)) throw new Error(`site/widget/widget.js lost its ${MARKER} marker.`);
  const body = source.replace(MARKER, `const roundStars = ${roundStars.toString()};`);
  return new Response(body, { headers: { 'Content-Type': 'text/javascript; charset=utf-8' } });
}
