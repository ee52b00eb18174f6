/**
 * Everything the static build renders, computed once per build (every endpoint and page of one
 * `astro build` shares this module instance).
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { root } from 'astro:config/server';
import type { Publication } from '../../core/dataset/build-dataset.ts';
import { createReviewJsonCache, renderReviewsDataset } from '../../core/dataset/render-json.ts';
import { createLogEntryLookup } from '../../core/dataset/review-log-entry.ts';
import { createServiceUrls, type ServiceUrls } from '../../core/urls.ts';
import type { LogSummary } from '../../core/log/log-summary.ts';
import { createTranslator } from '../../core/i18n/translator.ts';

async function loadBuildData() {
  const urls = createServiceUrls(import.meta.env.REVIEWS_PUBLIC_URL);
  const { dataset, insights, pageText, log } = await readPublication(urls);
  const reviewJson = createReviewJsonCache(dataset.reviews);
  const reviewsBody = renderReviewsDataset(dataset, reviewJson);
  const insightsBody = JSON.stringify(insights);
  // The since snapshots list each review with its log_entry, as the live route does from the change log.
  const logEntryOf = createLogEntryLookup(log && new Map(Object.entries(log.latest_entry)), urls);
  // The site's words and number rules (business.json `locale`), and the insights as its pages say them.
  const t = createTranslator(pageText.locale);
  return { urls, dataset, reviewJson, reviewsBody, insights, insightsBody, pageText, t, log, logEntryOf };
}

/**
 * scripts/build.ts has loaded, validated and analysed the content once (core/dataset/build-dataset.ts)
 * and hands this build the result in a file it wrote for it, so nothing is loaded or analysed twice.
 * Run by hand (`astro build`, `astro dev`), the build loads the content folder itself, once, and has no
 * review log (core/log/log-summary.ts: the build hands its summary in the same file).
 */
async function readPublication(urls: ServiceUrls): Promise<Publication & { log?: LogSummary }> {
  // A constant of the bundle (astro.config.mjs): the branch not taken is left out of it, so a build of
  // scripts/build.ts neither bundles nor loads the analyser and its learned weights.
  if (import.meta.env.REVIEWS_PUBLICATION_FILE) {
    return JSON.parse(await readFile(import.meta.env.REVIEWS_PUBLICATION_FILE, 'utf8')) as Publication & { log: LogSummary };
  }
  const [{ loadContent }, { formatContentProblems }, { buildPublication }] = await Promise.all([
    import('../../core/content/load-content.ts'),
    import('../../core/content/problems.ts'),
    import('../../core/dataset/build-dataset.ts'),
  ]);
  // Bundled, this module cannot find the project's default aspect set from its own URL.
  const content = await loadContent(import.meta.env.REVIEWS_CONTENT_DIR, {
    fallbackAspectsFile: fileURLToPath(new URL('core/insights/default-aspects.json', root)),
  });
  if (!content.ok) throw new Error(formatContentProblems(content.problems));
  return buildPublication(content.value, urls);
}

export type BuildData = Awaited<ReturnType<typeof loadBuildData>>;

let loading: Promise<BuildData> | undefined;

export function getBuildData(): Promise<BuildData> {
  return (loading ??= loadBuildData());
}

export function jsonResponse(body: string): Response {
  return new Response(body, { headers: { 'Content-Type': 'application/json; charset=utf-8' } });
}
