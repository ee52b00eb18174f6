/**
 * /widget.js, the `<reviews-widget>` script for other sites (site/widget/widget.js), with the site's one
 * rules for stars written into it: the functions the pages, the share image and the embed page use
 * (roundStars, core/text/text-rules.ts; formatStars, core/pages/format.ts), so the widget cannot round
 * or draw another way; and the review log's path (core/urls.ts), which it links to.
 */
import source from '../widget/widget.js?raw';
import { formatStars } from '../../core/pages/format.ts';
import { roundStars } from '../../core/text/text-rules.ts';
import { PATHS } from '../../core/urls.ts';

/** Each marker in the script, and the declaration written in its place. */
const WRITTEN_IN: [marker: string, declaration: string][] = [
  ['/* roundStars */', `const roundStars = ${roundStars.toString()};`],
  ['/* formatStars */', `const formatStars = ${formatStars.toString()};`],
  ['/* logPath */', `const logPath = ${JSON.stringify(PATHS.logPrefix)};`],
  ['/* aboutReviewsPath */', `const aboutReviewsPath = ${JSON.stringify(PATHS.aboutReviews)};`],
];

export function GET(): Response {
  let body: string = source;
  for (const [marker, declaration] of WRITTEN_IN) {
    if (!body.includes(marker)) throw new Error(`site/widget/widget.js lost its ${marker} marker.`);
    body = body.replace(marker, declaration);
  }
  return new Response(body, { headers: { 'Content-Type': 'text/javascript; charset=utf-8' } });
}
