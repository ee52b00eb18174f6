/**
 * How the business answers its reviews: per star band (1–2, 3, 4–5) and overall, how many reviews
 * have an owner's reply, the share replied to, and the median days from the review to the reply.
 * Computed once here for /insights.json, the pages, the summary and the MCP tools.
 */
import type { InsightsReview } from './analyzed-review.ts';
import type { ResponseBand, ResponseStats } from '../schemas/insights.ts';
import { createTranslator, type Translator } from '../i18n/translator.ts';

export const STAR_BANDS = [
  { band: '1-2', min: 1, max: 2 },
  { band: '3', min: 3, max: 3 },
  { band: '4-5', min: 4, max: 5 },
] as const;

const DAY_MS = 86_400_000;

export function computeResponses(reviews: readonly InsightsReview[]): ResponseStats {
  const toStats = (list: readonly InsightsReview[]) => {
    const days = list.flatMap((r) => (r.response ? [Math.max(0, (Date.parse(r.response.date) - Date.parse(r.date)) / DAY_MS)] : []));
    return {
      reviews: list.length,
      replied: days.length,
      reply_rate: list.length === 0 ? null : Math.round((1000 * days.length) / list.length) / 1000,
      median_reply_days: computeMedian(days),
    };
  };
  const bands: ResponseBand[] = STAR_BANDS.map(({ band, min, max }) => ({
    band,
    ...toStats(reviews.filter((r) => r.rating >= min && r.rating <= max)),
  }));
  return { ...toStats(reviews), bands };
}

function computeMedian(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return Math.round(median * 10) / 10;
}

/** "89% of 1–2 star reviews (42 of 47), typically within 1 day", or null without reviews. */
export function describeReplies(
  stats: Pick<ResponseBand, 'reviews' | 'replied' | 'reply_rate' | 'median_reply_days'>,
  what: string,
  t: Translator = createTranslator(),
): string | null {
  if (stats.reviews === 0 || stats.reply_rate === null) return null;
  const percent = Math.round(stats.reply_rate * 100);
  const days = stats.median_reply_days;
  const when = days === null ? '' : days < 1 ? t.m.insights.repliedSameDay : t.fill(t.m.insights.repliedWithin, { days: t.plural(t.m.units.day, Math.ceil(days)) });
  return t.fill(t.m.insights.replies, { percent: t.percent(percent), what, replied: stats.replied, reviews: stats.reviews, when });
}
