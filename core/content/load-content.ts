/** Reads and validates a content folder: the one entry point the build uses. */
import { parseContent, type Content } from './parse-content.ts';
import type { ContentResult } from './problems.ts';
import { readContentFolder } from './read-content.ts';

export async function loadContent(dir: string): Promise<ContentResult<Content>> {
  const { raw, problems } = await readContentFolder(dir);
  const parsed = parseContent({ business: raw.business ?? { file: 'business.json', data: undefined }, reviewFiles: raw.reviewFiles });
  if (problems.length === 0) return parsed;
  return { ok: false, problems: [...problems, ...(parsed.ok ? [] : parsed.problems.filter((p) => raw.business || p.file !== 'business.json'))] };
}
