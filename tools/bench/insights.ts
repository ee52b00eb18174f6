/**
 * Insights at 100k reviews (target: < 30 s). The generated bench content goes through the real
 * loader and publishing step (which gives each review its aspects), then computeInsights builds the
 * whole /insights.json, analysing every review again as the build does. Timed separately: the
 * per-review analysis alone, and computeInsights with it.
 */
import { loadContent } from '../../core/content/load-content.ts';
import { formatContentProblems } from '../../core/content/problems.ts';
import { buildReviewsDataset } from '../../core/dataset/build-dataset.ts';
import { buildInsights } from '../../core/dataset/build-insights.ts';
import { analyzePublishedReview } from '../../core/insights/analyze-review.ts';
import { createServiceUrls } from '../../core/urls.ts';
import { ensureBenchContent } from './bench-content.ts';
import type { BenchRow } from './types.ts';

const COUNT = 100_000;

export async function run(): Promise<BenchRow[]> {
  const contentDir = await ensureBenchContent(COUNT);
  const content = await loadContent(contentDir);
  if (!content.ok) throw new Error(formatContentProblems(content.problems));
  const dataset = buildReviewsDataset(content.value, createServiceUrls('https://reviews.example.com'));
  const { model } = content.value.insights;
  const label = `${COUNT / 1000}k generated reviews (${dataset.reviews.length} published)`;

  let started = performance.now();
  let mentions = 0;
  for (const review of dataset.reviews) mentions += analyzePublishedReview(review, model).length;
  const analysisSeconds = (performance.now() - started) / 1000;

  started = performance.now();
  const insights = buildInsights(content.value, dataset);
  const insightsSeconds = (performance.now() - started) / 1000;
  const bytes = Buffer.byteLength(JSON.stringify(insights));

  return [
    { name: `insights ${label}: per-review aspect analysis`, value: analysisSeconds, unit: 's' },
    { name: `insights ${label}: aspect mentions found`, value: mentions, unit: 'mentions' },
    { name: `insights ${label}: computeInsights with analysis, schema check`, value: insightsSeconds, unit: 's', target: '< 30', ok: insightsSeconds < 30 },
    { name: `insights ${label}: /insights.json size`, value: bytes / 1024, unit: 'KiB' },
  ];
}

if (import.meta.main) console.table(await run());
