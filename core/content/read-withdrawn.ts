/**
 * Reads the content folder's optional reason files, each an object of review id → reason
 * (core/schemas/content.ts): `withdrawn.json` (why a review left) and `corrections.json` (why the owner
 * changed a review's rating). A missing file is an empty map.
 */
import type { z } from 'zod';
import { MAX_CONTENT_JSON_BYTES, readContentFile } from '../read-content-file.ts';
import { CorrectionsContentSchema, WithdrawnContentSchema, type CorrectionReason, type WithdrawReason } from '../schemas/content.ts';
import { parseWithIssues } from '../schemas/issues.ts';
import type { ContentResult } from './problems.ts';

export const WITHDRAWN_FILE = 'withdrawn.json';
export const CORRECTIONS_FILE = 'corrections.json';

export function readWithdrawnReasons(contentDir: string): Promise<ContentResult<Map<string, WithdrawReason>>> {
  return readReasonFile(contentDir, WITHDRAWN_FILE, WithdrawnContentSchema);
}

export function readCorrectionReasons(contentDir: string): Promise<ContentResult<Map<string, CorrectionReason>>> {
  return readReasonFile(contentDir, CORRECTIONS_FILE, CorrectionsContentSchema);
}

async function readReasonFile<R extends string>(contentDir: string, file: string, schema: z.ZodType<Record<string, R>>): Promise<ContentResult<Map<string, R>>> {
  const read = await readContentFile(contentDir, file, MAX_CONTENT_JSON_BYTES);
  if (!read.ok) return read.missing ? { ok: true, value: new Map() } : { ok: false, problems: [{ file, message: read.reason }] };
  let json: unknown;
  try {
    json = JSON.parse(read.bytes.toString('utf8').replace(/^\uFEFF/, ''));
  } catch (error) {
    return { ok: false, problems: [{ file, message: `not valid JSON: ${(error as Error).message}` }] };
  }
  const parsed = parseWithIssues(schema, json);
  if (!parsed.ok) {
    return { ok: false, problems: parsed.issues.map((i) => ({ file, review: i.path[0] === undefined ? undefined : String(i.path[0]), message: i.message })) };
  }
  return { ok: true, value: new Map(Object.entries(parsed.value)) };
}
