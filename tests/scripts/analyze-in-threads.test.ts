/** The build's review analysis split over threads gives what one thread gives (scripts/lib/analyze-in-threads.ts). */
import { describe, expect, it } from 'vitest';
import { loadContent } from '../../core/content/load-content.ts';
import { analyzeReviewDetailed, getAnalysisText } from '../../core/insights/analyze-review.ts';
import { analyzeInThreads } from '../../scripts/lib/analyze-in-threads.ts';
import { BACKGROUND_NICE } from '../../sidecar/thread-priority.ts';
import { describeNices, niceHistory, niceOf, sampleTree } from '../helpers/process-tree.ts';

describe('analyzeInThreads', () => {
  it('gives every verified review the analysis one thread gives it, from a model each thread rebuilt', async () => {
    const loaded = await loadContent('examples/demo');
    if (!loaded.ok) throw new Error('the demo content does not load');
    const content = loaded.value;
    const verified = content.reviews.filter((r) => r.verified);
    const analyses = await analyzeInThreads(content, { threads: 3, minReviews: 0 });
    expect([...analyses!.keys()]).toEqual(verified.map((r) => r.id));
    for (const review of verified) {
      // A review in Spanish is read through Google's English translation, as the build reads it (publishReviews).
      const words = review.language !== undefined && review.translation?.language === 'en' ? review.translation : review;
      expect(analyses!.get(review.id), review.id).toEqual(analyzeReviewDetailed(getAnalysisText(words), content.insights.model, review.rating));
    }
    // The demo has such reviews, so the threads are shown to read them so too.
    expect(verified.some((r) => r.translation !== undefined)).toBe(true);
    // Not a match of empty analyses: the demo's reviews mention aspects.
    expect(verified.some((r) => analyses!.get(r.id)!.aspects.length > 0)).toBe(true);
  });

  it('starts no thread below its size or on one core', async () => {
    const loaded = await loadContent('examples/demo');
    if (!loaded.ok) throw new Error('the demo content does not load');
    expect(await analyzeInThreads(loaded.value)).toBeUndefined();
    expect(await analyzeInThreads(loaded.value, { threads: 1, minReviews: 0 })).toBeUndefined();
  });

  // Where the test runner itself runs at nice 10 or more, its threads start there, and this shows less.
  it.runIf(process.platform === 'linux')('analyses on threads that lower their own CPU priority, and leaves the calling thread as it was', async () => {
    const loaded = await loadContent('examples/demo');
    if (!loaded.ok) throw new Error('the demo content does not load');
    // Enough reviews that each thread analyses for a while after it lowered itself.
    const verified = loaded.value.reviews.filter((r) => r.verified);
    const reviews = Array.from({ length: 2_000 }, (_, i) => ({ ...verified[i % verified.length]!, id: `review-${i}` }));
    const own = niceOf('/proc/thread-self/stat');
    const sampler = sampleTree(process.pid);
    await analyzeInThreads({ ...loaded.value, reviews }, { threads: 3, minReviews: 0 });
    const samples = await sampler.stop();
    expect(niceOf('/proc/thread-self/stat')).toBe(own);
    // Each analysis thread (a worker thread; the sampler's own is left out) ended lowered and never went back.
    const threads = niceHistory(samples, (t) => t.thread === 'WorkerThread');
    expect(threads.size).toBe(2);
    for (const [tid, nices] of threads) {
      const first = nices.findIndex((nice) => nice >= Math.max(own, BACKGROUND_NICE));
      expect(first, `thread ${tid}: ${describeNices(nices)}`).toBeGreaterThanOrEqual(0);
      expect(nices.slice(first).every((nice) => nice >= Math.max(own, BACKGROUND_NICE)), `thread ${tid}: ${describeNices(nices)}`).toBe(true);
    }
  }, 120_000);
});
