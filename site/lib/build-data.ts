/**
 * Everything the static build renders, loaded and computed once per build (every endpoint and
 * page of one `astro build` shares this module instance).
 */
import { fileURLToPath } from 'node:url';
import { root } from 'astro:config/server';
import { loadContent } from '../../core/content/load-content.ts';
import { formatContentProblems } from '../../core/content/problems.ts';
import { buildReviewsDataset } from '../../core/dataset/build-dataset.ts';
import { buildInsights } from '../../core/dataset/build-insights.ts';
import { createReviewJsonCache, renderReviewsDataset } from '../../core/dataset/render-json.ts';
import { createServiceUrls } from '../../core/urls.ts';

async function loadBuildData() {
  const contentDir = import.meta.env.REVIEWS_CONTENT_DIR;
  const publicUrl = import.meta.env.REVIEWS_PUBLIC_URL;
  // Bundled, this module cannot find the project's default aspect set from its own URL.
  const content = await loadContent(contentDir, { fallbackAspectsFile: fileURLToPath(new URL('content/aspects.json', root)) });
  if (!content.ok) throw new Error(formatContentProblems(content.problems));
  const urls = createServiceUrls(publicUrl);
  const dataset = buildReviewsDataset(content.value, urls);
  const reviewJson = createReviewJsonCache(dataset.reviews);
  const reviewsBody = renderReviewsDataset(dataset, reviewJson);
  const insights = buildInsights(content.value, dataset);
  const insightsBody = JSON.stringify(insights);
  return { content: content.value, urls, dataset, reviewJson, reviewsBody, insights, insightsBody };
}

export type BuildData = Awaited<ReturnType<typeof loadBuildData>>;

let loading: Promise<BuildData> | undefined;

export function getBuildData(): Promise<BuildData> {
  return (loading ??= loadBuildData());
}

export function jsonResponse(body: string): Response {
  return new Response(body, { headers: { 'Content-Type': 'application/json; charset=utf-8' } });
}
