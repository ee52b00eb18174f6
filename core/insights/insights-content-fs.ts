/**
 * Reads the insights files of a content folder from disk: aspects.json (the aspect set and domain
 * lexicon) and the optional editor files insights/faq.json and insights/summary.json. The only
 * module of core/insights that does I/O; everything else takes the parsed values.
 */
import { readFile } from 'node:fs/promises';
import { MAX_CONTENT_JSON_BYTES, readContentFile } from '../read-content-file.ts';
import { parseAspectModel } from './aspect-model.ts';
import type { AspectModel } from './aspect-model.ts';
import type { ErrorIssue } from '../schemas/errors.ts';
import { parseInsightsEditorial } from './editorial.ts';
import type { InsightsEditorial } from './editorial.ts';

export type InsightsContent = {
  model: AspectModel;
  editorial: InsightsEditorial;
  /** The aspects.json value the model was parsed from: a thread of its own rebuilds the same model from it (the model holds functions). */
  aspectsSource: unknown;
};
export type ReadInsightsContentResult = { ok: true; content: InsightsContent } | { ok: false; issues: ErrorIssue[] };

/**
 * `fallbackAspectsFile` is read when the folder has no aspects.json (a content folder made before
 * insights existed); without it, a missing aspects.json is a problem. Issue paths start with the file.
 */
export async function readInsightsContent(
  contentDir: string,
  options: { fallbackAspectsFile?: string } = {},
): Promise<ReadInsightsContentResult> {
  const issues: ErrorIssue[] = [];
  // The content folder's files go through core/read-content-file.ts (untrusted input); the fallback is the project's own.
  const readText = async (root: string | undefined, file: string, label: string): Promise<string | undefined> => {
    if (root === undefined) {
      return readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return undefined;
        throw error;
      });
    }
    const read = await readContentFile(root, file, MAX_CONTENT_JSON_BYTES);
    if (read.ok) return read.bytes.toString('utf8');
    if (!read.missing) issues.push({ path: [label], message: read.reason, code: 'unreadable_file' });
    return undefined;
  };
  const read = async (root: string | undefined, file: string, label: string): Promise<unknown> => {
    const text = await readText(root, file, label);
    if (text === undefined) return undefined;
    try {
      return JSON.parse(text) as unknown;
    } catch (error) {
      issues.push({ path: [label], message: `is not valid JSON: ${(error as Error).message}`, code: 'invalid_json' });
      return undefined;
    }
  };
  let aspects = await read(contentDir, 'aspects.json', 'aspects.json');
  if (aspects === undefined && issues.length === 0 && options.fallbackAspectsFile !== undefined) {
    aspects = await read(undefined, options.fallbackAspectsFile, 'aspects.json');
  }
  const faq = await read(contentDir, 'insights/faq.json', 'insights/faq.json');
  const summary = await read(contentDir, 'insights/summary.json', 'insights/summary.json');
  if (aspects === undefined && !issues.some((i) => i.path[0] === 'aspects.json')) {
    issues.push({ path: ['aspects.json'], message: 'is missing', code: 'missing_file' });
  }
  const model = aspects === undefined ? undefined : parseAspectModel(aspects);
  if (model !== undefined && !model.ok) issues.push(...model.issues.map((i) => ({ ...i, path: ['aspects.json', ...i.path] })));
  const editorial = parseInsightsEditorial({ faq, summary });
  if (!editorial.ok) {
    issues.push(
      ...editorial.issues.map((i) => ({ ...i, path: [`insights/${String(i.path[0])}`, ...i.path.slice(1)] })),
    );
  }
  if (issues.length > 0 || model === undefined || !model.ok || !editorial.ok) return { ok: false, issues };
  return { ok: true, content: { model: model.model, editorial: editorial.editorial, aspectsSource: aspects } };
}
