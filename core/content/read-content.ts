/**
 * Reads the content folder from disk: business.json, reviews/*.json and jobs/*.json (sorted by name), each through
 * core/read-content-file.ts (regular files only, links only inside the folder, a size cap).
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { inspectContentEntry, MAX_CONTENT_JSON_BYTES, readContentFile } from '../read-content-file.ts';
import type { ContentProblem } from './problems.ts';
import type { RawContent, RawFile } from './parse-content.ts';

/**
 * Reads what it can and reports what it cannot; files that did read are still validated, so one
 * broken file does not hide the problems of the others.
 */
export async function readContentFolder(dir: string): Promise<{ raw: Partial<RawContent> & { reviewFiles: RawFile[]; jobFiles: RawFile[] }; problems: ContentProblem[] }> {
  const problems: ContentProblem[] = [];
  const business = await readJsonFile(dir, 'business.json', problems);
  const reviewFiles = await readJsonFolder(dir, 'reviews', problems, { required: true });
  const jobFiles = await readJsonFolder(dir, 'jobs', problems, { required: false });
  return { raw: { business, reviewFiles, jobFiles }, problems };
}

/** Every `*.json` of a folder of the content, by name; `jobs/` may be missing (a business that logs no jobs). */
async function readJsonFolder(dir: string, folderName: string, problems: ContentProblem[], options: { required: boolean }): Promise<RawFile[]> {
  let names: string[] = [];
  const folder = await inspectContentEntry(dir, path.join(dir, folderName));
  if (folder.ok && folder.kind !== 'directory') {
    problems.push({ file: `${folderName}/`, message: `cannot read the ${folderName} folder: it is a link; the ${folderName} folder must be a folder` });
  } else if (!folder.ok) {
    if (options.required || !folder.missing) problems.push({ file: `${folderName}/`, message: `cannot read the ${folderName} folder: ${folder.reason}` });
  } else {
    try {
      names = (await readdir(path.join(dir, folderName))).filter((n) => n.endsWith('.json')).sort();
    } catch (error) {
      problems.push({ file: `${folderName}/`, message: `cannot read the ${folderName} folder: ${(error as Error).message}` });
    }
  }
  const files: RawFile[] = [];
  for (const name of names) {
    const file = await readJsonFile(dir, `${folderName}/${name}`, problems);
    if (file) files.push(file);
  }
  return files;
}

async function readJsonFile(dir: string, file: string, problems: ContentProblem[]): Promise<RawFile | undefined> {
  const read = await readContentFile(dir, file, MAX_CONTENT_JSON_BYTES);
  if (!read.ok) {
    problems.push({ file, message: read.missing ? `cannot read: ${read.reason}` : read.reason });
    return undefined;
  }
  const text = read.bytes.toString('utf8');
  try {
    // A byte order mark is allowed (editors on Windows write one); JSON.parse would call it an unexpected token.
    return { file, data: JSON.parse(text.replace(/^\uFEFF/, '')) };
  } catch (error) {
    problems.push({ file, message: `not valid JSON: ${(error as Error).message}` });
    return undefined;
  }
}
