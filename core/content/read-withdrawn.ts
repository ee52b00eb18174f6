/** Reads the content folder's optional `withdrawn.json` (core/schemas/content.ts WithdrawnContentSchema). */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { WithdrawnContentSchema, type WithdrawReason } from '../schemas/content.ts';
import { parseWithIssues } from '../schemas/issues.ts';
import type { ContentResult } from './problems.ts';

export const WITHDRAWN_FILE = 'withdrawn.json';

export async function readWithdrawnReasons(contentDir: string): Promise<ContentResult<Map<string, WithdrawReason>>> {
  let text: string;
  try {
    text = await readFile(path.join(contentDir, WITHDRAWN_FILE), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { ok: true, value: new Map() };
    return { ok: false, problems: [{ file: WITHDRAWN_FILE, message: `cannot read: ${(error as Error).message}` }] };
  }
  let json: unknown;
  try {
    json = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    return { ok: false, problems: [{ file: WITHDRAWN_FILE, message: `not valid JSON: ${(error as Error).message}` }] };
  }
  const parsed = parseWithIssues(WithdrawnContentSchema, json);
  if (!parsed.ok) {
    return { ok: false, problems: parsed.issues.map((i) => ({ file: WITHDRAWN_FILE, review: i.path[0] === undefined ? undefined : String(i.path[0]), message: i.message })) };
  }
  return { ok: true, value: new Map(Object.entries(parsed.value)) };
}
