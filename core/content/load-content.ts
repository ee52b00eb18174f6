/**
 * Reads and validates a content folder: the one entry point the build uses. Besides business.json
 * and the reviews it reads the insights files (aspects.json, insights/faq.json, insights/summary.json),
 * so an invalid aspect set or editor file, or an editor entry citing a review that is not published,
 * stops the build with the same problem list as invalid reviews.
 */
import { fileURLToPath } from 'node:url';
import { withTechnicians } from '../insights/aspect-model.ts';
import type { ErrorIssue } from '../schemas/errors.ts';
import { checkEditorialReviewIds } from '../insights/editorial.ts';
import { readInsightsContent, type InsightsContent } from '../insights/insights-content-fs.ts';
import { parseContent, type Content } from './parse-content.ts';
import { formatPath, type ContentProblem, type ContentResult } from './problems.ts';
import { readContentFolder } from './read-content.ts';

/** A content folder with its insights: the aspect model and the editor's FAQ and summary. */
export type LoadedContent = Content & { insights: InsightsContent };

export type LoadContentOptions = {
  /**
   * The aspect set used when the folder has no aspects.json of its own (a folder made before
   * insights existed): by default the project's own, core/insights/default-aspects.json. Code bundled
   * elsewhere (the Astro build) must pass it, since its module URL no longer points into the project.
   */
  fallbackAspectsFile?: string;
};

export const DEFAULT_ASPECTS_FILE = fileURLToPath(new URL('../insights/default-aspects.json', import.meta.url));

export async function loadContent(dir: string, options: LoadContentOptions = {}): Promise<ContentResult<LoadedContent>> {
  const { raw, problems } = await readContentFolder(dir);
  const parsed = parseContent({ business: raw.business ?? { file: 'business.json', data: undefined }, reviewFiles: raw.reviewFiles, jobFiles: raw.jobFiles });
  if (!parsed.ok) problems.push(...parsed.problems.filter((p) => raw.business || p.file !== 'business.json'));

  const insights = await readInsightsContent(dir, { fallbackAspectsFile: options.fallbackAspectsFile ?? DEFAULT_ASPECTS_FILE });
  if (!insights.ok) problems.push(...insights.issues.map(toContentProblem));
  else if (parsed.ok) {
    const published = new Set(parsed.value.reviews.filter((r) => r.verified).map((r) => r.id));
    const unknown = checkEditorialReviewIds(insights.content.editorial, published);
    // checkEditorialReviewIds names the file relative to insights/.
    problems.push(...unknown.map((issue) => toContentProblem({ ...issue, path: [`insights/${String(issue.path[0])}`, ...issue.path.slice(1)] })));
  }

  if (problems.length > 0 || !parsed.ok || !insights.ok) return { ok: false, problems };
  // The analyzer knows the technicians by name ("Kevin was awesome" judges a person).
  const model = withTechnicians(insights.content.model, parsed.value.business.technicians);
  return { ok: true, value: { ...parsed.value, insights: { ...insights.content, model } } };
}

/** Insights issues carry the file as the first path element (`aspects.json`, `insights/faq.json`). */
function toContentProblem(issue: ErrorIssue): ContentProblem {
  const [file, ...field] = issue.path;
  const problem: ContentProblem = { file: String(file ?? 'aspects.json'), message: issue.message };
  const dotted = formatPath(field);
  if (dotted !== undefined) problem.field = dotted;
  return problem;
}
