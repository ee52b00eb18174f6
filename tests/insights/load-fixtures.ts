/** Loads the shipped aspect set and the small hand-made insights fixtures. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAspectModel, withTechnicians } from '../../core/insights/aspect-model.ts';
import type { AspectModel } from '../../core/insights/aspect-model.ts';
import type { InsightsReview } from '../../core/insights/analyzed-review.ts';
import type { BusinessEntities } from '../../core/insights/entity-insights.ts';

const root = join(import.meta.dirname, '..', '..');

export function readJson(relativePath: string): unknown {
  return JSON.parse(readFileSync(join(root, relativePath), 'utf8'));
}

/** The shipped aspect set, knowing the technicians of content/business.json, as the build loads it. */
export function loadDefaultModel(): AspectModel {
  const parsed = parseAspectModel(readJson('content/aspects.json'));
  if (!parsed.ok) throw new Error(`content/aspects.json: ${JSON.stringify(parsed.issues)}`);
  const business = readJson('content/business.json') as { technicians: { name: string; aliases?: string[] }[] };
  return withTechnicians(parsed.model, business.technicians);
}

export function loadFixtureReviews(): InsightsReview[] {
  return readJson('tests/fixtures/insights/reviews.json') as InsightsReview[];
}

export function loadFixtureBusiness(): BusinessEntities & { name: string } {
  return readJson('tests/fixtures/insights/business.json') as BusinessEntities & { name: string };
}
