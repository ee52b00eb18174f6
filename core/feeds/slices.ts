/**
 * The slices of the reviews that have feeds of their own (issue 23): every technician, every service,
 * every aspect's complaints, and all complaints. Each slice has an Atom feed and a JSON Feed of its
 * newest reviews, rendered by the same renderers as the main feeds, and each feed is a WebSub topic.
 *
 * A complaint is a review rated 1 or 2, or one with a negative opinion on some aspect; an aspect's
 * complaints are the reviews with a negative opinion on that aspect (`aspect_sentiment=negative`).
 */
import type { PublishedBusiness, PublishedReview } from '../schemas/published.ts';
import { assignTechnicianSlugs, sliceFeedPath, technicianPath, servicePath, locationPath, PATHS, type FeedSliceRef, type ServiceUrls } from '../urls.ts';
import { describeFeed, FEED_ITEM_COUNT, type FeedChannel } from './feed-entries.ts';
import { createTranslator, type Translator } from '../i18n/translator.ts';

/** Ratings that make a review a complaint whatever its words say. */
const COMPLAINT_MAX_RATING = 2;

export type FeedSlice = {
  ref: FeedSliceRef;
  /** `technician`, `service`, `location`, `aspect-complaints` or `complaints`. */
  kind: FeedSliceRef['kind'];
  /** The technician's name, the service's or the location's name, "Complaints about <aspect>", or "All complaints". */
  name: string;
  /** An aspect's label, lowered, for its complaints' slice. */
  aspect?: string;
  /** The human page that lists the same reviews, where the feeds are announced. */
  pagePath: string;
  atomPath: string;
  jsonPath: string;
  /** Whether a review belongs to the slice. */
  includes: (review: PublishedReview) => boolean;
};

export function isComplaint(review: PublishedReview): boolean {
  return review.rating <= COMPLAINT_MAX_RATING || review.aspects.some((a) => a.polarity === 'negative');
}

function complainsAbout(review: PublishedReview, aspect: string): boolean {
  return review.aspects.some((a) => a.aspect === aspect && a.polarity === 'negative');
}

/**
 * Every slice of the business, in a fixed order: technicians, services, locations (the business's order),
 * aspects, then all complaints. A business without locations has no location slices.
 */
export function listFeedSlices(business: PublishedBusiness, aspects: readonly { id: string; label: string }[], t: Translator = createTranslator()): FeedSlice[] {
  const slugs = assignTechnicianSlugs(business.technicians.map((t) => t.name));
  const make = (ref: FeedSliceRef, name: string, pagePath: string, includes: FeedSlice['includes']): FeedSlice => ({
    ref,
    kind: ref.kind,
    name,
    pagePath,
    atomPath: sliceFeedPath(ref, 'atom'),
    jsonPath: sliceFeedPath(ref, 'json'),
    includes,
  });
  return [
    ...business.technicians.map((t) => {
      const slug = slugs.get(t.name)!;
      return make({ kind: 'technician', key: slug }, t.name, technicianPath(slug), (r) => r.technicians.includes(t.name));
    }),
    ...business.services.map((s) => make({ kind: 'service', key: s.id }, s.name, servicePath(s.id), (r) => r.services.includes(s.id))),
    ...(business.locations ?? []).map((l) => make({ kind: 'location', key: l.id }, l.name, locationPath(l.id), (r) => r.location === l.id)),
    ...aspects.map((a) => ({
      ...make({ kind: 'aspect-complaints', key: a.id }, t.fill(t.m.feeds.complaintsAbout, { aspect: a.label.toLowerCase() }), PATHS.home, (r) => complainsAbout(r, a.id)),
      aspect: a.label.toLowerCase(),
    })),
    make({ kind: 'complaints' }, t.m.feeds.allComplaints, PATHS.home, isComplaint),
  ];
}

/** The title, description and addresses a slice's two feeds carry. */
export function describeSliceChannel(slice: FeedSlice, business: PublishedBusiness, urls: ServiceUrls, t: Translator = createTranslator()): FeedChannel {
  const words = t.m.feeds;
  const what: Record<FeedSlice['kind'], string> = {
    technician: t.fill(words.technician, { name: slice.name }),
    service: t.fill(words.service, { name: slice.name }),
    location: t.fill(words.location, { name: slice.name }),
    'aspect-complaints': t.fill(words.aspectComplaints, { aspect: slice.aspect ?? slice.name }),
    complaints: words.complaints,
  };
  return {
    title: t.fill(words.sliceTitle, { name: business.name, slice: slice.name }),
    description: t.fill(words.sliceDescription, { count: FEED_ITEM_COUNT, name: business.name, what: what[slice.kind] }),
    atomUrl: urls.absolute(slice.atomPath),
    jsonUrl: urls.absolute(slice.jsonPath),
    pageUrl: urls.absolute(slice.pagePath),
  };
}

/** The reviews of a slice, newest first (the order of `reviews`, which is already newest first). */
export function selectSliceReviews(slice: FeedSlice, reviews: readonly PublishedReview[]): PublishedReview[] {
  return reviews.filter(slice.includes);
}

/** `/feeds.json`: every feed of the service, the main ones first, each with its page, formats and hub. */
export function buildFeedsIndex(slices: readonly FeedSlice[], business: PublishedBusiness, urls: ServiceUrls, t: Translator = createTranslator()) {
  const entry = (kind: string, key: string | null, channel: FeedChannel) => ({
    kind,
    key,
    title: channel.title,
    page_url: channel.pageUrl,
    atom_url: channel.atomUrl,
    json_url: channel.jsonUrl,
  });
  return {
    hub: urls.hub,
    feeds: [
      entry('all', null, describeFeed({ business, urls, reviews: [], t })),
      ...slices.map((slice) => entry(slice.kind, 'key' in slice.ref ? slice.ref.key : null, describeSliceChannel(slice, business, urls, t))),
    ],
  };
}
