/**
 * One review as the pages show it (every page that lists reviews, prerendered or the search page):
 * rating, title, text, who and when (the date is its permalink, an anchor on its month's page that
 * `:target` highlights), where it came from, its photos, its location (for a business that has them), the
 * services and technicians it mentions with links to their pages, the owner's reply, and its first entry in the public log when known. A review
 * without a title gets no invented one (its heading is its rating); a long one is folded after its first
 * paragraph's worth of words, with a "Read more" that opens without JavaScript. `marks` (the search
 * page's) are drawn as `<mark>`. Names and the title are isolated (`<bdi>`): a right-to-left name, or
 * one with a direction override, cannot reorder the rest of its line.
 *
 * Written as a string rather than an Astro component so that the service renders the search page's
 * results with the very code the build renders every other card with (search-page.ts), and a month page
 * of thousands of cards costs no component per card.
 */
import type { PublishedBusiness, PublishedMedia, PublishedReview, PublishedTranslation } from '../schemas/published.ts';
import { UNDETERMINED } from '../text/detect-language.ts';
import { assignTechnicianSlugs, locationPath, logCheckPath, PATHS, reviewPath, servicePath, technicianPath } from '../urls.ts';
import type { LogSummary } from '../log/log-summary.ts';
import { foldLongText, formatSource, formatStars, formatUpdateChange } from './format.ts';
import { splitMarked, type MarkRange, type ReviewMarks } from './highlight.ts';
import { escapeText, fillHtml, rawHtml, writeAttributes } from './html.ts';
import { createTranslator, type Translator } from '../i18n/translator.ts';
import { describeMedia, mediaSrcset, toMediaPath } from './media-links.ts';

/** Names of the services and locations, and pages of the technicians, a card links to. */
export type ReviewLinks = { serviceNames: ReadonlyMap<string, string>; technicianPaths: ReadonlyMap<string, string>; locationNames: ReadonlyMap<string, string> };

export type ReviewCardOptions = {
  /** Keeps heading levels in order on each page. */
  level: 2 | 3 | 4;
  links: ReviewLinks;
  marks?: ReviewMarks;
  /** When the review's first entry in the public log was published (core/log/log-summary.ts), when the page knows it. */
  loggedSince?: string;
  /** The review is in the public log, since when not known here (the search page's): the card still links to its check. */
  logged?: boolean;
  /**
   * The review's changes of rating in the log (core/log/log-summary.ts), in log order, when the page knows
   * them: the card says the rating it was first published with, and the latest change.
   */
  ratingChanges?: readonly Pick<LogSummary['rating_changes'][number], 'time' | 'previous_rating' | 'rating' | 'change' | 'reason'>[];
  /** Whether the business logs its jobs: a review tied to none then says so. */
  jobsLogged?: boolean;
  /** The site's language (core/i18n/). */
  t: Translator;
};

/**
 * The honest label of a review's tie to a job (issue 42 item 4): a job logged before the review is the
 * strong case; one logged with it (the same publish) or after it is weaker, and is said as "not logged before",
 * which is true of both; a review with none says where it came from instead.
 */
export function describeJobTie(review: Pick<PublishedReview, 'job' | 'source'>, jobsLogged: boolean, t: Translator = createTranslator()): string | undefined {
  const { job } = review;
  const words = t.m.card;
  if (job === undefined) return jobsLogged ? (review.source === 'direct' ? words.sentDirectly : t.fill(words.fromSource, { source: formatSource(review.source, t) })) : undefined;
  const [year, week] = job.week.split('-W');
  return t.fill(job.logged_before_review ? words.jobBefore : words.jobAfter, { week: Number(week), year: year! });
}

/** The links of every service and technician of the business, by the one slug rule (core/urls.ts). */
export function listReviewLinks(business: PublishedBusiness): ReviewLinks {
  const slugs = assignTechnicianSlugs(business.technicians.map((t) => t.name));
  return {
    serviceNames: new Map(business.services.map((s) => [s.id, s.name])),
    technicianPaths: new Map([...slugs].map(([name, slug]) => [name, technicianPath(slug)])),
    locationNames: listLocationNames(business),
  };
}

/** Each location's name by its id; empty for a business without locations. */
export function listLocationNames(business: PublishedBusiness): ReadonlyMap<string, string> {
  return new Map((business.locations ?? []).map((l) => [l.id, l.name]));
}

export function renderReviewCard(review: PublishedReview, { level, links, marks, loggedSince, logged = false, ratingChanges = [], jobsLogged = false, t }: ReviewCardOptions): string {
  const words = t.m.card;
  const source = formatSource(review.source, t);
  const text = foldLongText(review.text);
  const author = rawHtml(`<bdi>${escapeText(review.author)}</bdi>`);
  let html = `<article${writeAttributes({ class: 'review', id: review.id })}>`;
  html += `<h${level}><span class="stars" aria-hidden="true">${escapeText(formatStars(review.rating))}</span><span class="vh">${fillHtml(words.rated, { rating: review.rating })}</span>`;
  // The customer's own words carry their language when it is known (an English review's card is unchanged).
  const lang = review.language === undefined || review.language === UNDETERMINED ? undefined : review.language;
  const own = lang === undefined ? ' dir="auto"' : writeAttributes({ lang, dir: 'auto' });
  if (review.title !== null) html += ` <bdi${lang === undefined ? '' : writeAttributes({ lang })}>${writeMarked(review.title, marks?.title)}</bdi>`;
  html += `</h${level}>`;
  if (text.rest === null) {
    html += `<p${own}>${writeMarked(review.text, marks?.text)}</p>`;
  } else {
    html += `<p${own}>${writeMarked(review.text, marks?.text, 0, text.headEnd)}<span class="ellipsis">…</span></p>`;
    html += `<details class="read-more"><summary>${fillHtml(words.readMore)}<span class="vh">${fillHtml(words.readMoreOf, { author })}</span></summary>`;
    html += `<p${own}>${writeMarked(review.text, marks?.text, text.restStart)}</p></details>`;
  }
  if (review.translation !== undefined) html += renderTranslation(review.translation, review.author, t);
  if (review.media.length > 0) html += renderPhotos(review, t);
  html += `<p class="meta"><bdi>${escapeText(review.author)}</bdi> · <a${writeAttributes({ href: reviewPath(review) })}><time${writeAttributes({ datetime: review.date })}>${escapeText(t.date(review.date))}</time></a> · `;
  if (review.source === 'direct') html += fillHtml(words.direct);
  else if (review.source_url) {
    const link = `<a${writeAttributes({ href: review.source_url, rel: 'external' })}>${escapeText(source)}<span class="vh">${fillHtml(words.originalReview)}</span></a>`;
    html += fillHtml(words.via, { source: rawHtml(link) });
  } else html += escapeText(t.fill(words.via, { source }));
  if (review.service_area) html += ` · <bdi>${escapeText(review.service_area)}</bdi>`;
  html += '</p>';
  const location = review.location === undefined ? undefined : links.locationNames.get(review.location);
  if (review.services.length > 0 || review.technicians.length > 0 || location !== undefined) {
    html += '<ul class="tags">';
    if (location !== undefined) {
      const named = `<a${writeAttributes({ href: locationPath(review.location!) })}><bdi>${escapeText(location)}</bdi></a>`;
      html += `<li>${fillHtml(words.location, { name: rawHtml(named) })}</li>`;
    }
    for (const id of review.services) html += `<li><a${writeAttributes({ href: servicePath(id) })}><bdi>${escapeText(links.serviceNames.get(id) ?? id)}</bdi></a></li>`;
    for (const name of review.technicians) {
      const page = links.technicianPaths.get(name);
      const named = page === undefined ? `<bdi>${escapeText(name)}</bdi>` : `<a${writeAttributes({ href: page })}><bdi>${escapeText(name)}</bdi></a>`;
      html += `<li>${fillHtml(words.technician, { name: rawHtml(named) })}</li>`;
    }
    html += '</ul>';
  }
  if (review.response) {
    html += `<div class="reply"><p><strong>${fillHtml(words.reply)}</strong> <span class="meta">· <time${writeAttributes({ datetime: review.response.date })}>${escapeText(t.date(review.response.date))}</time></span></p>`;
    html += `<p dir="auto">${escapeText(review.response.text)}</p></div>`;
  }
  const tie = describeJobTie(review, jobsLogged, t);
  if (tie !== undefined) html += `<p${writeAttributes({ class: `meta job-tie${review.job?.logged_before_review ? ' before' : ''}` })}>${escapeText(tie)}</p>`;
  const [first, last] = [ratingChanges[0], ratingChanges.at(-1)];
  if (first !== undefined && last !== undefined) {
    const stars = (n: number) => t.plural(t.m.units.star, n);
    html += `<p class="meta rating-change">${escapeText(t.fill(words.ratingChanged, { before: stars(first.previous_rating), after: stars(last.rating), date: t.date(last.time.slice(0, 10)), how: formatUpdateChange(last.change, last.reason, t) }))}</p>`;
  }
  if (loggedSince !== undefined || logged) {
    // For a person: since when, and a check of this review in the browser (site/pages/log/check/).
    const log = `<a${writeAttributes({ href: PATHS.logPrefix })}>${fillHtml(words.publicLog)}</a>`;
    const check = `<a${writeAttributes({ href: logCheckPath(review.id) })}>${fillHtml(words.checkIt)}<span class="vh">${fillHtml(words.thisReviewBy, { author })}</span></a>`;
    const line = loggedSince === undefined ? fillHtml(words.inLog, { log: rawHtml(log), check: rawHtml(check) }) : fillHtml(words.loggedSince, { log: rawHtml(log), date: t.date(loggedSince.slice(0, 10)), check: rawHtml(check) });
    html += `<p class="meta log-entry">${line}</p>`;
  }
  return `${html}</article>`;
}

/**
 * A translation the source gave, folded behind a disclosure that opens without JavaScript and says who
 * made it: never shown as the customer's words (issue 43 item 3).
 */
function renderTranslation(translation: PublishedTranslation, author: string, t: Translator): string {
  const attributes = writeAttributes({ lang: translation.language, dir: 'auto' });
  let html = `<details class="translation"><summary>${escapeText(describeTranslator(translation.by, t))}<span class="vh">${fillHtml(t.m.card.theReviewBy, { author: rawHtml(`<bdi>${escapeText(author)}</bdi>`) })}</span></summary>`;
  if (translation.title !== null) html += `<p${attributes}><strong>${escapeText(translation.title)}</strong></p>`;
  return `${html}<p${attributes}>${escapeText(translation.text)}</p></details>`;
}

/** "Translated by Google", "Translated by the owner". */
export function describeTranslator(by: string, t: Translator = createTranslator()): string {
  return by === 'owner' ? t.m.card.translatedByOwner : t.fill(t.m.card.translatedBy, { source: formatSource(by, t) });
}

/** `text.slice(from, to)`, with the ranges that fall in it drawn as `<mark>`. */
function writeMarked(text: string, ranges: readonly MarkRange[] | undefined, from = 0, to = text.length): string {
  if (ranges === undefined || ranges.length === 0) return escapeText(text.slice(from, to));
  return splitMarked(text, ranges, from, to)
    .map((piece) => (piece.marked ? `<mark>${escapeText(piece.text)}</mark>` : escapeText(piece.text)))
    .join('');
}

/** Thumbnails show 96 px high; the browser picks the width it needs from the srcset. */
const THUMBNAIL_SIZES = '(min-width: 40em) 128px, 96px';

/**
 * A review's photos as thumbnails: the size of each reserved by its width and height (no layout shift),
 * loaded lazily, WebP with a JPEG fallback, each a plain link to the picture at full size (a video's
 * link to the video), so it opens without JavaScript.
 */
function renderPhotos(review: PublishedReview, t: Translator): string {
  const items = review.media.map((media: PublishedMedia, i) => {
    const thumb = media.variants.find((v) => v.mime_type === 'image/jpeg')!;
    const alt = describeMedia(media, review.author, i, review.media.length, t);
    const video = media.video_url ? `<span class="play" aria-hidden="true">▶</span><span class="vh">${fillHtml(t.m.card.video)}</span>` : '';
    return (
      `<li><a${writeAttributes({ href: media.video_url ?? toMediaPath(media.url), rel: media.video_url ? 'external' : undefined })}><picture>` +
      `<source${writeAttributes({ type: 'image/webp', srcset: mediaSrcset(media, 'image/webp'), sizes: THUMBNAIL_SIZES })}>` +
      `<img${writeAttributes({ src: toMediaPath(thumb.url), srcset: mediaSrcset(media, 'image/jpeg'), sizes: THUMBNAIL_SIZES, width: thumb.width, height: thumb.height, alt, loading: 'lazy', decoding: 'async' })}>` +
      `</picture>${video}</a></li>`
    );
  });
  return `<ul${writeAttributes({ class: 'photos', 'aria-label': t.fill(t.m.card.photosFrom, { author: review.author }) })}>${items.join('')}</ul>`;
}
