/** Reads the content folder's optional `withdrawn.json` (core/schemas/content.ts WithdrawnContentSchema). */
import { MAX_CONTENT_JSON_BYTES, readContentFile } from '../read-content-file.ts';
import { WithdrawnContentSchema, type WithdrawReason } from '../schemas/content.ts';
import { parseWithIssues } from '../schemas/issues.ts';
import type { ContentResult } from './problems.ts';

export const WITHDRAWN_FILE = 'withdrawn.json';

export async function readWithdrawnReasons(contentDir: string): Promise<ContentResult<Map<string, WithdrawReason>>> {
  const read = await readContentFile(contentDir, WITHDRAWN_FILE, MAX_CONTENT_JSON_BYTES);
  if (!read.ok) return read.missing ? { ok: true, value: new Map() } : { ok: false, problems: [{ file: WITHDRAWN_FILE, message: read.reason }] };
  let json: unknown;
  try {
    json = JSON.parse(read.bytes.toString('utf8').replace(/^\uFEFF/, ''));
  } catch (error) {
    return { ok: false, problems: [{ file: WITHDRAWN_FILE, message: `not valid JSON: ${(error as Error).message}` }] };
  }
  const parsed = parseWithIssues(WithdrawnContentSchema, json);
  if (!parsed.ok) {
    return { ok: false, problems: parsed.issues.map((i) => ({ file: WITHDRAWN_FILE, review: i.path[0] === undefined ? undefined : String(i.path[0]), message: i.message })) };
  }
  return { ok: true, value: new Map(Object.entries(parsed.value)) };
}
