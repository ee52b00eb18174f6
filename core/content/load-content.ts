/** Reads and validates a content folder: the one entry point the build uses. */
import { parseContent, type Content } from './parse-content.ts';
import type { ContentResult } from './problems.ts';
import { readContentFolder } from './read-content.ts';

export async function loadContent(dir: string): Promise<ContentResult<Content>> {
  const raw = await readContentFolder(dir);
  return raw.ok ? parseContent(raw.value) : raw;
}
