/**
 * Turns validated content into the published review records (CONTRACT.md "Published shapes"):
 * only verified reviews, explicit tags merged with mentions found in the text, canonical names,
 * every optional field present (null when absent), the aspect sentiment of each review, newest first.
 */
import { resolveUpdated } from './review-history.ts';
import { analyzeReviewDetailed, getAnalysisText, NO_ANALYSIS, readAnalysisText, toPublishedAspects, type ReviewAnalysis } from '../insights/analyze-review.ts';
import type { AspectModel } from '../insights/aspect-model.ts';
import type { PublishedReview } from '../schemas/published.ts';
import type { ReviewContent } from '../schemas/content.ts';
import { compareNewestFirst } from '../order.ts';
import type { ServiceUrls } from '../urls.ts';
import type { Content } from './parse-content.ts';
import { publishMedia, type MediaCatalog } from '../media/media-variants.ts';
import { detectLanguage, UNDETERMINED } from '../text/detect-language.ts';

export const DEFAULT_SOURCE = 'direct';

export type PublishedReviews = {
  /** Newest first. */
  reviews: PublishedReview[];
  /** Each review's analysis, by id: what its `aspects` were taken from, for computeInsights to count. */
  analyses: Map<string, ReviewAnalysis>;
};

/**
 * `model` is the aspect set. Each review is analysed once: its `aspects` and the insights' counts come
 * from that one analysis (of getAnalysisText), so /insights.json can be recounted from /reviews.json.
 */
export function publishReviews(
  content: Content,
  urls: ServiceUrls,
  model: AspectModel,
  /** Each review's last change in the content's history (core/content/review-history.ts), when there is one. */
  changedAt: ReadonlyMap<string, string> = new Map(),
  /**
   * The build's encoded photos (scripts/lib/media/). Without one (tools and tests that publish no
   * files), every review's `media` is empty.
   */
  media?: MediaCatalog,
  /** Analyses made beforehand, by id (scripts/lib/analyze-in-threads.ts); a review without one is analysed here. */
  precomputed?: ReadonlyMap<string, ReviewAnalysis>,
): PublishedReviews {
  const technicianOrder = content.business.technicians.map((t) => t.name);
  const serviceOrder = content.business.services.map((s) => s.id);
  const areas = new Map(content.business.service_areas.map((a) => [a.toLowerCase(), a]));
  const analyses = new Map<string, ReviewAnalysis>();
  const reviews = content.reviews
    .filter((r) => r.verified)
    .map((review) => publishReview(review))
    .sort(compareNewestFirst);
  return { reviews, analyses };

  function publishReview(review: ReviewContent): PublishedReview {
    // Title and text, as mention detection and aspect analysis both read them.
    const searchable = getAnalysisText(review);
    // A review in another language is analysed through its English translation, when it has one; without
    // one, not at all: the English analyser would read its words as English (a name as praise).
    const read = readAnalysisText({ ...review, language: review.language ?? publishLanguage(review).language });
    const analysis = read === undefined ? NO_ANALYSIS : (precomputed?.get(review.id) ?? analyzeReviewDetailed(read.text, model, review.rating));
    analyses.set(review.id, analysis);
    const technicians = new Set(content.technicianMatcher.findIn(searchable));
    for (const name of review.technicians ?? []) technicians.add(content.technicianMatcher.resolve(name)!);
    const services = new Set(content.serviceMatcher.findIn(searchable));
    for (const id of review.services ?? []) services.add(id);
    return {
      id: review.id,
      rating: review.rating,
      date: review.date,
      text: review.text,
      title: review.title ?? null,
      author: review.author,
      source: review.source ?? DEFAULT_SOURCE,
      ...(review.source_url === undefined ? {} : { source_url: review.source_url }),
      verified: true,
      technicians: technicianOrder.filter((name) => technicians.has(name)),
      services: serviceOrder.filter((id) => services.has(id)),
      service_area: review.service_area === undefined ? null : areas.get(review.service_area.toLowerCase())!,
      ...(review.location === undefined ? {} : { location: review.location }),
      response: review.response ? { text: review.response.text, date: review.response.date } : null,
      ...publishLanguage(review),
      url: urls.review(review),
      media: media === undefined || review.media === undefined ? [] : publishMedia(review.media, media, urls),
      updated: resolveUpdated(review, changedAt.get(review.id)),
      // Evidence offsets point into the customer's words: a translation's words have none to give.
      aspects: read?.translated ? toPublishedAspects(review, analysis).map((a) => ({ ...a, evidence: [] })) : toPublishedAspects(review, analysis),
    };
  }
}

/** The default language of the site: a review in it carries no `language`, so an English business's files stay as they were. */
const DEFAULT_LANGUAGE = 'en';

/**
 * `language` and `translation` as published (issue 43 item 3): the content's language, else the detected
 * one; given when it is neither English nor undetermined, or when there is a translation to set it beside.
 */
export function publishLanguage(review: Pick<ReviewContent, 'text' | 'title' | 'language' | 'translation'>): Pick<PublishedReview, 'language' | 'translation'> {
  const language = review.language ?? detectLanguage(review.title === undefined ? review.text : `${review.title}\n${review.text}`);
  const { translation } = review;
  if (translation === undefined) return language === DEFAULT_LANGUAGE || language === UNDETERMINED ? {} : { language };
  return { language, translation: { text: translation.text, title: translation.title ?? null, language: translation.language, by: translation.by } };
}
