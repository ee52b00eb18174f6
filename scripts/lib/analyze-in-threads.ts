/**
 * The build's one analysis of every verified review (core/insights/analyze-review.ts), on every core:
 * the reviews are split into as many parts as the machine has cores, this thread analyses the first
 * and a worker thread (analyze-thread.ts) each of the others. At 100k reviews the analysis was most of
 * the 20 s before Astro starts, on one core of two.
 *
 * A worker rebuilds the model from the aspects.json value this thread parsed (the model holds
 * functions, which no message can carry), so both analyse with the same aspect set, and the result is
 * the analyses the build would have made alone (tested). Below MIN_REVIEWS, or on one core, nothing
 * is started: publishReviews analyses as it goes.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { LoadedContent } from '../../core/content/load-content.ts';
import { analyzeReviewDetailed, readAnalysisText, type ReviewAnalysis } from '../../core/insights/analyze-review.ts';
import { publishLanguage } from '../../core/content/publish-reviews.ts';

/** Fewer reviews than this take less time than starting a thread. */
export const MIN_REVIEWS = 2_000;

export type AnalysisJob = {
  aspectsSource: unknown;
  technicians: { name: string; aliases?: string[] }[];
  reviews: { text: string; rating: number }[];
};

export async function analyzeInThreads(
  content: LoadedContent,
  { threads = availableParallelism(), minReviews = MIN_REVIEWS }: { threads?: number; minReviews?: number } = {},
): Promise<Map<string, ReviewAnalysis> | undefined> {
  const verified = content.reviews.filter((r) => r.verified);
  if (verified.length < minReviews || threads < 2) return undefined;
  // The same text publishReviews analyses: a review in another language through its English translation,
  // and none it cannot read, which publishReviews does not analyse.
  const reviews = verified.flatMap((r) => {
    const read = readAnalysisText({ ...r, language: r.language ?? publishLanguage(r).language });
    return read === undefined ? [] : [{ id: r.id, text: read.text, rating: r.rating }];
  });
  const items = reviews.map(({ text, rating }) => ({ text, rating }));
  const size = Math.ceil(items.length / threads);
  const parts = Array.from({ length: threads }, (_, i) => items.slice(i * size, (i + 1) * size));
  const technicians = content.business.technicians.map((t) => ({ name: t.name, aliases: t.aliases }));
  const others = parts.slice(1).map((part) => inWorker({ aspectsSource: content.insights.aspectsSource, technicians, reviews: part }));
  // Handled at once, so a worker that fails while this thread is busy is not an unhandled rejection.
  for (const other of others) other.catch(() => {});
  const model = content.insights.model;
  const results = [parts[0]!.map((r) => analyzeReviewDetailed(r.text, model, r.rating)), ...(await Promise.all(others))];
  const analyses = new Map<string, ReviewAnalysis>();
  let i = 0;
  for (const part of results) for (const analysis of part) analyses.set(reviews[i++]!.id, analysis);
  return analyses;
}

function inWorker(job: AnalysisJob): Promise<ReviewAnalysis[]> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./analyze-thread.ts', import.meta.url), { workerData: job });
    worker.once('message', (analyses: ReviewAnalysis[]) => resolve(analyses));
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`The analysis thread ended (exit code ${code}) before it answered.`)));
  });
}
