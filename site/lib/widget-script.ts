/**
 * The script of /widget.js (site/pages/widget.js.ts), the `<reviews-widget>` for other sites
 * (site/widget/widget.js), with the site's one rules for stars written into it: the functions the pages, the share image and the embed page use
 * (roundStars, core/text/text-rules.ts; formatStars, core/pages/format.ts), so the widget cannot round
 * or draw another way; the pages' names of review sources (nameSource, core/pages/format.ts), which say who
 * translated a review; the site's language and the tag of an undetermined one (UNDETERMINED,
 * core/text/detect-language.ts); and the review log's path (core/urls.ts), which it links to.
 *
 * Its words are English as written. For a site in another language (business.json `locale`), each
 * `/*t:EXPR*\/english/*\/t*\/` of the script is replaced by EXPR, written against `L`: the widget's
 * strings from the site's catalogue (core/i18n/) and the catalogue's own rules for filling them and
 * writing numbers, which the strings marker declares. An English site's script has its markers taken
 * out, and nothing else changes.
 */
import source from '../widget/widget.js?raw';
import { formatStars, nameSource, SOURCE_NAMES } from '../../core/pages/format.ts';
import { choosePlural, fill } from '../../core/i18n/fill.ts';
import { DEFAULT_LOCALE } from '../../core/i18n/locales.ts';
import type { Translator } from '../../core/i18n/translator.ts';
import { groupDigits, roundStars } from '../../core/text/text-rules.ts';
import { UNDETERMINED } from '../../core/text/detect-language.ts';
import { PATHS } from '../../core/urls.ts';

/** `/*t:EXPR*\/english/*\/t*\/`: a string of the widget, and how the catalogue writes it. */
const TRANSLATED = /\/\*t:([\s\S]*?)\*\/([\s\S]*?)\/\*\/t\*\//g;
const STRINGS_MARKER = '/* strings */';

/** Each marker in the script, and the declaration written in its place for a site in `t`'s language. */
function listDeclarations(t: Translator): [marker: string, declaration: string][] {
  return [
    ['/* roundStars */', `const roundStars = ${roundStars.toString()};`],
    ['/* formatStars */', `const formatStars = ${formatStars.toString()};`],
    ['/* nameSource */', `const nameSource = (source) => (${nameSource.toString()})(source, ${JSON.stringify(SOURCE_NAMES)});`],
    ['/* siteLanguage */', `const siteLanguage = ${JSON.stringify(t.locale)};`],
    ['/* undetermined */', `const UNDETERMINED = ${JSON.stringify(UNDETERMINED)};`],
    ['/* logPath */', `const logPath = ${JSON.stringify(PATHS.logPrefix)};`],
    ['/* aboutReviewsPath */', `const aboutReviewsPath = ${JSON.stringify(PATHS.aboutReviews)};`],
  ];
}

/** `L`: the widget's strings in the site's language, and the helpers the markers' expressions call. */
function declareStrings(t: Translator): string {
  const { m } = t;
  const { photo, rated, translatedBy, translatedByOwner, theReviewBy } = m.card;
  const strings = { ...m.widget, months: m.format.monthsShort, verifiedReviews: m.units.verifiedReview, stars: m.units.star, percent: m.format.percent, photo, rated, translatedBy, translatedByOwner, theReviewBy };
  const rules = { decimalSeparator: m.format.decimalSeparator, groupSeparator: m.format.groupSeparator, groupMinDigits: m.format.groupMinDigits };
  return `const L = (() => {
    const groupDigits = ${groupDigits.toString()};
    const fill = ${fill.toString()};
    const choosePlural = ${choosePlural.toString()};
    const rules = ${JSON.stringify(rules)};
    const count = (n) => groupDigits(n, rules.groupSeparator, rules.groupMinDigits);
    return {
      ...${JSON.stringify(strings)},
      fill,
      count,
      decimal: (value, digits) => value.toFixed(digits).replace('.', rules.decimalSeparator),
      counted: (forms, n) => fill(choosePlural(forms, n), { count: count(n) }),
      around: (template, node) => {
        const [before, after] = template.split(/\\{\\w+\\}/);
        return [before, node, after];
      },
    };
  })();`;
}

/** The script in the site's language (`t`). */
export function renderWidgetScript(t: Translator): string {
  let body: string = source;
  for (const [marker, declaration] of listDeclarations(t)) {
    if (!body.includes(marker)) throw new Error(`site/widget/widget.js lost its ${marker} marker.`);
    body = body.replace(marker, declaration);
  }
  if (!body.includes(STRINGS_MARKER)) throw new Error(`site/widget/widget.js lost its ${STRINGS_MARKER} marker.`);
  if (t.locale === DEFAULT_LOCALE) {
    body = body.replace(new RegExp(String.raw`\n[ \t]*${STRINGS_MARKER.replace(/[/*]/g, '\\$&')}[ \t]*(?=\n)`), '').replace(TRANSLATED, '$2');
  } else {
    body = body.replace(STRINGS_MARKER, declareStrings(t)).replace(TRANSLATED, '$1');
  }
  return body;
}
