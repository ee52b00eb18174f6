/**
 * Atom feed (RFC 4287) of the newest reviews, the WebSub topic /feed.xml. Hand-written rather than with
 * the `feed` package, which stamps the build time. Every timestamp is derived from the data: the feed's
 * `updated` is the latest review or owner-reply date among its entries (§4.2.15), so rebuilding unchanged
 * content gives the same bytes.
 *
 * The feed has an `author`, so entries may omit theirs (§4.1.1); each entry still names its reviewer.
 * `<link rel="self">` and `<link rel="hub">` let a subscriber discover the WebSub hub (WebSub §4).
 */
import type { PublishedBusiness, PublishedReview } from '../schemas/published.ts';
import type { ServiceUrls } from '../urls.ts';
import {
  describeFeed,
  formatFeedTimestamp,
  getEntryAttachments,
  getEntryServices,
  getEntryText,
  getEntryTitle,
  getFeedUpdatedTimestamp,
  selectFeedReviews,
  type FeedInput,
} from './feed-entries.ts';
import { escapeXmlAttribute as attr, escapeXmlText as text } from './xml.ts';
import { createTranslator, type Translator } from '../i18n/translator.ts';

export const ATOM_NAMESPACE = 'http://www.w3.org/2005/Atom';
/**
 * The namespace of this service's Atom extension elements (RFC 4287 §6.4): a fixed name, the same on every
 * site, so a reader recognises them anywhere (docs/api.md "Languages"): `<r:translation>`, and `<r:job>`, the
 * job a review is tied to in the review log, as the JSON Feed's `_review.job` gives it.
 */
export const REVIEW_NAMESPACE = 'urn:uuid:0b6f2d3e-7c41-4b9a-9e57-2f1c8a6d4e10';
export const ATOM_GENERATOR = 'reviews-service';

export function renderAtomFeed(input: FeedInput): string {
  const { business, reviews, urls, t = createTranslator() } = input;
  const entries = selectFeedReviews(reviews);
  const { title, description, atomUrl, pageUrl } = describeFeed(input);
  const lines = [
    '<?xml version="1.0" encoding="utf-8"?>',
    `<feed xmlns="${ATOM_NAMESPACE}"${entries.some((r) => r.translation !== undefined || r.job !== undefined) ? ` xmlns:r="${REVIEW_NAMESPACE}"` : ''} xml:lang="${t.locale}">`,
    `  <id>${text(atomUrl)}</id>`,
    `  <title type="text">${text(title)}</title>`,
    `  <subtitle type="text">${text(description)}</subtitle>`,
    `  <updated>${getFeedUpdatedTimestamp(entries)}</updated>`,
    `  <link rel="self" type="application/atom+xml" href="${attr(atomUrl)}"/>`,
    `  <link rel="hub" href="${attr(urls.hub)}"/>`,
    `  <link rel="alternate" type="text/html" href="${attr(pageUrl)}"/>`,
    '  <author>',
    `    <name>${text(business.name)}</name>`,
    `    <uri>${text(business.url)}</uri>`,
    '  </author>',
    `  <generator>${ATOM_GENERATOR}</generator>`,
    ...entries.flatMap((review) => renderEntry(review, business, urls, t)),
    '</feed>',
  ];
  return `${lines.join('\n')}\n`;
}

function renderEntry(review: PublishedReview, business: PublishedBusiness, urls: ServiceUrls, t: Translator): string[] {
  const url = urls.review(review);
  return [
    '  <entry>',
    `    <id>${text(url)}</id>`,
    `    <title type="text">${text(getEntryTitle(review, t))}</title>`,
    `    <updated>${review.updated}</updated>`,
    `    <published>${formatFeedTimestamp(review.date)}</published>`,
    '    <author>',
    `      <name>${text(review.author)}</name>`,
    '    </author>',
    `    <link rel="alternate" type="text/html" href="${attr(url)}"/>`,
    // RFC 4287 §4.2.7.2: an enclosure is a related resource, potentially large; `length` is its size in bytes.
    ...getEntryAttachments(review).map(
      (a) => `    <link rel="enclosure" type="${a.mime_type}" length="${a.size_in_bytes}" href="${attr(a.url)}"${a.title === undefined ? '' : ` title="${attr(a.title)}"`}/>`,
    ),
    ...getEntryServices(review, business).map(
      (service) => `    <category term="${attr(service.id)}" label="${attr(service.name)}"/>`,
    ),
    // The customer's words in their language; a translation the source gave beside them, saying whose it is.
    `    <content type="text"${review.language === undefined ? '' : ` xml:lang="${attr(review.language)}"`}>${text(getEntryText(review, t))}</content>`,
    ...(review.translation === undefined
      ? []
      : [`    <r:translation xml:lang="${attr(review.translation.language)}" by="${attr(review.translation.by)}">${text(review.translation.text)}</r:translation>`]),
    ...(review.job === undefined
      ? []
      : [`    <r:job entry="${review.job.entry}" week="${attr(review.job.week)}" service="${attr(review.job.service)}" logged-before-review="${review.job.logged_before_review}"/>`]),
    '  </entry>',
  ];
}
