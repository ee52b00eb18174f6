/**
 * Everything the static build renders, loaded and computed once per build (every endpoint and
 * page of one `astro build` shares this module instance).
 */
import { loadContent } from '../../core/content/load-content.ts';
import { formatContentProblems } from '../../core/content/problems.ts';
import { buildReviewsDataset } from '../../core/dataset/build-dataset.ts';
import { createReviewJsonCache, renderReviewsDataset } from '../../core/dataset/render-json.ts';
import { createServiceUrls } from '../../core/urls.ts';

async function loadBuildData() {
  const contentDir = import.meta.env.REVIEWS_CONTENT_DIR as string;
  const publicUrl = String(import.meta.env.SITE).replace(/\/+$/, '');
  const content = await loadContent(contentDir);
  if (!content.ok) throw new Error(formatContentProblems(content.problems));
  const urls = createServiceUrls(publicUrl);
  const dataset = buildReviewsDataset(content.value, urls);
  const reviewJson = createReviewJsonCache(dataset.reviews);
  const reviewsBody = renderReviewsDataset(dataset, reviewJson);
  return { content: content.value, urls, dataset, reviewJson, reviewsBody };
}

export type BuildData = Awaited<ReturnType<typeof loadBuildData>>;

let loading: Promise<BuildData> | undefined;

export function getBuildData(): Promise<BuildData> {
  return (loading ??= loadBuildData());
}

export function jsonResponse(body: string): Response {
  return new Response(body, { headers: { 'Content-Type': 'application/json; charset=utf-8' } });
}
