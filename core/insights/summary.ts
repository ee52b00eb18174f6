/**
 * The editorial summary, written from the data in plain sentences with every number from the
 * figures elsewhere in the document. An editor's text (content/insights/summary.json) replaces it;
 * the generated text stays beside it, and an editor's text older than the newest review is `stale`.
 */
import type { InsightsEditorial } from './editorial.ts';
import { MIN_TECHNICIAN_REVIEWS } from './faq.ts';
import { lowerFirst, splitRecentYear } from './figures.ts';
import { describeReplies } from './responses.ts';
import { describeEstimatedCount, pickEstimate } from './estimate-text.ts';
import { describeReviewCount, findMostComplained, MIN_VERDICT_MENTIONS, selectVerdicts } from './verdicts.ts';
import type { AspectInsight, EntityInsight, InsightsBasis, ResponseStats, Summary } from '../schemas/insights.ts';
import { getPercent } from '../text/text-rules.ts';
import { createTranslator, type Translator } from '../i18n/translator.ts';

const TREND_MIN_CHANGE = 15;

export type SummaryInput = {
  basis: InsightsBasis;
  aspects: readonly AspectInsight[];
  technicians: readonly EntityInsight[];
  responses: ResponseStats;
  businessName: string | null;
  editorial: InsightsEditorial;
  /** The language the sentences are written in: English for /insights.json (core/insights/page-text.ts). */
  t?: Translator;
};

type Highlight = Summary['highlights'][number];

export function computeSummary({ basis, aspects, technicians, responses, businessName, editorial, t = createTranslator() }: SummaryInput): Summary {
  const highlights: Highlight[] = [];
  const sentences: string[] = [];
  const words = t.m.insights.summary;
  const n = basis.review_count;
  const name = businessName ?? words.theBusiness;
  if (n === 0 || basis.average_rating === null) {
    sentences.push(words.noReviews);
  } else {
    sentences.push(
      t.fill(words.basedOn, { reviews: t.plural(t.m.units.verifiedReview, n), first: basis.first_date!, last: basis.last_date!, name, rating: t.rating(basis.average_rating) }),
    );
    const eligible = aspects.filter((a) => a.mentions >= MIN_VERDICT_MENTIONS);
    const strengths = selectVerdicts(aspects, 'strength').slice(0, 2);
    // Shares and counts from the corrected estimates where there are some (docs/insights.md).
    const describe = (a: AspectInsight) =>
      t.fill(words.praiseItem, {
        aspect: lowerFirst(a.label),
        percent: t.percent(getPercent(pickEstimate(a.positive, a.estimate?.positive), pickEstimate(a.mentions, a.estimate?.mentions))),
        mentions: describeEstimatedCount(a.mentions, a.estimate?.mentions, t.m.units.mention, t, { inline: true }),
      });
    if (strengths.length > 0) {
      sentences.push(t.fill(words.praise, { list: t.list(strengths.map(describe)) }));
      for (const a of strengths) highlights.push(toHighlight(a, 'strength', 'positive'));
    }
    const concern = findMostComplained(aspects.map(withEstimates))?.aspect;
    if (concern !== undefined) {
      const negative = pickEstimate(concern.negative, concern.estimate?.negative);
      const mentions = pickEstimate(concern.mentions, concern.estimate?.mentions);
      sentences.push(
        t.fill(words.complaint, {
          aspect: lowerFirst(concern.label),
          complaints: describeEstimatedCount(concern.negative, concern.estimate?.negative, t.m.units.complaint, t),
          mentions: describeEstimatedCount(concern.mentions, concern.estimate?.mentions, t.m.units.mention, t),
          percent: t.percent(getPercent(negative, mentions)),
        }),
      );
      highlights.push(toHighlight(concern, 'concern', 'negative'));
    } else if (eligible.length > 0) {
      sentences.push(words.noComplaint);
    }
    const trend = findLargestTrend(eligible);
    if (trend !== undefined) {
      const { aspect, recent, before } = trend;
      // `{Aspect}` is the label as written, for a language that starts the sentence with it; `{aspect}` lowered.
      sentences.push(t.fill(recent > before ? words.improved : words.declined, { Aspect: aspect.label, aspect: lowerFirst(aspect.label), recent, before }));
      highlights.push(toHighlight(aspect, 'trend', recent > before ? 'positive' : 'negative'));
    }
    const best = technicians
      .filter((t) => t.reviews >= MIN_TECHNICIAN_REVIEWS && t.average_rating !== null)
      .sort((a, b) => (b.average_rating ?? 0) - (a.average_rating ?? 0) || b.reviews - a.reviews)[0];
    if (best !== undefined) {
      sentences.push(t.fill(words.bestTechnician, { name: best.name, rating: t.rating(best.average_rating ?? 0), reviews: describeReviewCount(best.reviews, t) }));
    }
    const low = responses.bands.find((b) => b.band === '1-2');
    const replies = low === undefined ? null : describeReplies(low, t.m.insights.lowBand, t);
    if (replies !== null) sentences.push(t.fill(words.replied, { replies }));
  }
  const generated = sentences.join(' ');
  const editorText = editorial.summary.text;
  const asOf = editorial.summary.as_of ?? null;
  return {
    text: editorText ?? generated,
    source: editorText === undefined ? 'data' : 'editor',
    generated_text: generated,
    basis,
    editor_as_of: editorText === undefined ? null : asOf,
    stale: editorText !== undefined && basis.last_date !== null && (asOf === null || asOf < basis.last_date),
    highlights,
  };
}

/** The figures findMostComplained ranks by: the corrected counts where there are some. */
function withEstimates(aspect: AspectInsight) {
  return {
    aspect,
    mentions: pickEstimate(aspect.mentions, aspect.estimate?.mentions),
    positive: pickEstimate(aspect.positive, aspect.estimate?.positive),
    negative: pickEstimate(aspect.negative, aspect.estimate?.negative),
  };
}

function findLargestTrend(eligible: readonly AspectInsight[]): { aspect: AspectInsight; recent: number; before: number } | undefined {
  let found: { aspect: AspectInsight; recent: number; before: number } | undefined;
  for (const aspect of eligible) {
    const { recent, before } = splitRecentYear(aspect.trend);
    if (recent.mentions < 5 || before.mentions < 5) continue;
    const net = (c: typeof recent) => Math.round((100 * (c.positive - c.negative)) / c.mentions);
    const change = net(recent) - net(before);
    if (Math.abs(change) < TREND_MIN_CHANGE) continue;
    if (found === undefined || Math.abs(change) > Math.abs(found.recent - found.before)) {
      found = { aspect, recent: net(recent), before: net(before) };
    }
  }
  return found;
}

function toHighlight(aspect: AspectInsight, kind: Highlight['kind'], polarity: 'positive' | 'negative'): Highlight {
  const { mentions, positive, neutral, negative, net_score } = aspect;
  return {
    aspect: aspect.id,
    kind,
    mentions,
    positive,
    neutral,
    negative,
    net_score,
    review_ids: aspect.quotes.filter((q) => q.polarity === polarity).map((q) => q.review_id),
  };
}
