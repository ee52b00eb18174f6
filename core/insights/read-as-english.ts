/**
 * Which words of a review the analyser reads: it reads English only (docs/insights.md). Apart from the
 * analyser, so the pages can say which reviews their figures leave out without loading it.
 */
/** What readAsEnglish reads of a review: its own words, its language and a translation its source gave. */
export type ReadableReview = {
  title?: string | null;
  text: string;
  language?: string;
  translation?: { title?: string | null; text: string; language: string };
};

/**
 * The words the analyser reads (issue 43 item 3): the customer's own, or for a review in another language an
 * English translation its source gave. `translated` says which, for what must quote the customer (evidence
 * offsets, quotes). The analyser reads English only.
 */
export function readAsEnglish(review: ReadableReview): { title: string | null; text: string; translated: boolean } {
  const { translation } = review;
  if (translation !== undefined && review.language !== 'en' && translation.language === 'en') {
    return { title: translation.title ?? null, text: translation.text, translated: true };
  }
  return { title: review.title ?? null, text: review.text, translated: false };
}

/** Whether the analyser cannot read a review: written in another language, with no English translation. */
export function isUnreadable(review: ReadableReview): boolean {
  return review.language !== undefined && review.language !== 'en' && review.language !== 'und' && !readAsEnglish(review).translated;
}
