/** Loads the shipped aspect set and the small hand-made insights fixtures. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAspectModel, withTechnicians } from '../../core/insights/aspect-model.ts';
import type { AspectModel } from '../../core/insights/aspect-model.ts';
import type { InsightsReview } from '../../core/insights/analyzed-review.ts';
import type { BusinessEntities } from '../../core/insights/entity-insights.ts';
import { DEFAULT_ASPECTS_FILE } from '../../core/content/load-content.ts';
import { loadCorpusTechnicians } from '../../tools/insights-corpus/load-corpus.ts';

const root = join(import.meta.dirname, '..', '..');

export function readJson(relativePath: string): unknown {
  return JSON.parse(readFileSync(join(root, relativePath), 'utf8'));
}

/** The shipped aspect set, knowing the technicians the insights corpus names, as the build loads it. */
export function loadDefaultModel(): AspectModel {
  const parsed = parseAspectModel(JSON.parse(readFileSync(DEFAULT_ASPECTS_FILE, 'utf8')));
  if (!parsed.ok) throw new Error(`${DEFAULT_ASPECTS_FILE}: ${JSON.stringify(parsed.issues)}`);
  return withTechnicians(parsed.model, loadCorpusTechnicians());
}

export function loadFixtureReviews(): InsightsReview[] {
  return readJson('tests/fixtures/insights/reviews.json') as InsightsReview[];
}

export function loadFixtureBusiness(): BusinessEntities & { name: string } {
  return readJson('tests/fixtures/insights/business.json') as BusinessEntities & { name: string };
}
