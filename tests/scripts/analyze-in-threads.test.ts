/** The build's review analysis split over threads gives what one thread gives (scripts/lib/analyze-in-threads.ts). */
import { describe, expect, it } from 'vitest';
import { loadContent } from '../../core/content/load-content.ts';
import { analyzeReviewDetailed, getAnalysisText } from '../../core/insights/analyze-review.ts';
import { analyzeInThreads } from '../../scripts/lib/analyze-in-threads.ts';

describe('analyzeInThreads', () => {
  it('gives every verified review the analysis one thread gives it, from a model each thread rebuilt', async () => {
    const loaded = await loadContent('examples/demo');
    if (!loaded.ok) throw new Error('the demo content does not load');
    const content = loaded.value;
    const verified = content.reviews.filter((r) => r.verified);
    const analyses = await analyzeInThreads(content, { threads: 3, minReviews: 0 });
    expect([...analyses!.keys()]).toEqual(verified.map((r) => r.id));
    for (const review of verified) {
      expect(analyses!.get(review.id), review.id).toEqual(analyzeReviewDetailed(getAnalysisText(review), content.insights.model, review.rating));
    }
    // Not a match of empty analyses: the demo's reviews mention aspects.
    expect(verified.some((r) => analyses!.get(r.id)!.aspects.length > 0)).toBe(true);
  });

  it('starts no thread below its size or on one core', async () => {
    const loaded = await loadContent('examples/demo');
    if (!loaded.ok) throw new Error('the demo content does not load');
    expect(await analyzeInThreads(loaded.value)).toBeUndefined();
    expect(await analyzeInThreads(loaded.value, { threads: 1, minReviews: 0 })).toBeUndefined();
  });
});
