/**
 * The import's disk side: reading the content folder's review files (reviews/), job files (jobs/) and
 * business.json, and writing a merge plan into one of those folders all or nothing.
 *
 * All or nothing: the new folder is staged beside the old one (unchanged files hard-linked,
 * changed ones written and flushed), then swapped in with two renames, as the build swaps dist/. A
 * crash leaves either the old folder or the new one; a crash between the two renames leaves the old
 * one aside, and the next import puts it back. A lock the kernel holds keeps two imports (or syncs) from
 * interleaving: `.import.lock.held`, with `.import.lock` naming its holder, both there only while it runs.
 */
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { copyFile, cp, link, mkdir, open, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { createFileIfMissing } from '../../core/atomic-file-fs.ts';
import { MAX_CONTENT_JSON_BYTES, readContentFile } from '../../core/read-content-file.ts';
import path from 'node:path';
import type { ExistingFile } from './merge.ts';
import { takeHeldLock } from '../lib/held-lock.ts';

/** The folders an import writes: the reviews, and the jobs (`npm run import -- jobs`). */
export type ImportFolder = 'reviews' | 'jobs';
const FOLDERS: readonly ImportFolder[] = ['reviews', 'jobs'];
const stagingPrefix = (folder: ImportFolder) => `.${folder}-staging-`;
const retiredPrefix = (folder: ImportFolder) => `.${folder}-retired-`;
const LOCK = '.import.lock';

export type ReadResult<T> = { ok: true; value: T } | { ok: false; problems: string[] };

/** A file of reviews/ or jobs/: its text and its objects. */
export type ArrayFile = { name: string; text: string; items: Record<string, unknown>[] };

/** Every `reviews/*.json` (sorted by name), each as text and parsed; a folder without reviews/ has none. */
export async function readReviewFiles(contentDir: string): Promise<ReadResult<ExistingFile[]>> {
  const read = await readArrayFiles(contentDir, 'reviews');
  return read.ok ? { ok: true, value: read.value.map(({ name, text, items }) => ({ name, text, reviews: items })) } : read;
}

/** Every `<folder>/*.json` (sorted by name), each a JSON array of objects, as text and parsed; none without the folder. */
export async function readArrayFiles(contentDir: string, folder: ImportFolder): Promise<ReadResult<ArrayFile[]>> {
  const noun = folder === 'reviews' ? 'review' : 'job';
  let names: string[];
  try {
    names = (await readdir(path.join(contentDir, folder))).filter((n) => n.endsWith('.json')).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { ok: true, value: [] };
    return { ok: false, problems: [`${folder}/: cannot read: ${(error as Error).message}`] };
  }
  const files: ArrayFile[] = [];
  const problems: string[] = [];
  for (const name of names) {
    // The content folder is untrusted: a FIFO or a link out of it is named, never read (core/read-content-file.ts).
    const read = await readContentFile(contentDir, `${folder}/${name}`, MAX_CONTENT_JSON_BYTES);
    if (!read.ok) {
      problems.push(`${folder}/${name}: ${read.reason}; fix it before importing`);
      continue;
    }
    const text = read.bytes.toString('utf8');
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (error) {
      problems.push(`${folder}/${name}: not valid JSON (${(error as Error).message}); fix it before importing`);
      continue;
    }
    if (!Array.isArray(data) || !data.every((r) => r !== null && typeof r === 'object' && !Array.isArray(r))) {
      problems.push(`${folder}/${name}: must be a JSON array of ${noun} objects; fix it before importing`);
      continue;
    }
    files.push({ name, text, items: data as Record<string, unknown>[] });
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, value: files };
}

/** business.json parsed, or undefined when the folder has none yet (or it is not JSON: the build says so). */
export async function readBusinessFile(contentDir: string): Promise<unknown> {
  const read = await readContentFile(contentDir, 'business.json', MAX_CONTENT_JSON_BYTES);
  if (!read.ok) return undefined;
  try {
    return JSON.parse(read.bytes.toString('utf8'));
  } catch {
    return undefined;
  }
}

/**
 * Takes the folder's import lock (scripts/lib/held-lock.ts), first tidying what an interrupted import left behind.
 * A pid alone could not say whether the holder lives: an import killed as pid 1 of its container left a lock
 * naming 1, and the next container's import, pid 1 as well, took it for a live holder and refused, as every
 * later one would.
 */
export async function lockContentFolder(contentDir: string): Promise<{ ok: true; release: () => Promise<void>; recovered: string[] } | { ok: false; message: string }> {
  await mkdir(contentDir, { recursive: true });
  // Tidy: the owner's folder keeps no lock file once the import is done.
  const lock = await takeHeldLock(path.join(contentDir, LOCK), { tidy: true });
  if (!lock.ok) return { ok: false, message: `another import${lock.pid ? ` (process ${lock.pid})` : ''} is writing ${contentDir}; wait for it to finish` };
  return { ok: true, release: lock.release, recovered: await recoverInterrupted(contentDir) };
}

/** Puts back a reviews or jobs folder set aside by an import that died between its two renames; drops stale staging. */
async function recoverInterrupted(contentDir: string): Promise<string[]> {
  const notes: string[] = [];
  const entries = await readdir(contentDir);
  for (const folder of FOLDERS) {
    let restored = entries.includes(folder);
    for (const name of entries.filter((n) => n.startsWith(retiredPrefix(folder))).sort()) {
      if (!restored) {
        await rename(path.join(contentDir, name), path.join(contentDir, folder));
        restored = true;
        notes.push(`an earlier import was interrupted: ${folder}/ is back as it was before it`);
      } else await rm(path.join(contentDir, name), { recursive: true, force: true });
    }
    for (const name of entries.filter((n) => n.startsWith(stagingPrefix(folder)))) {
      await rm(path.join(contentDir, name), { recursive: true, force: true });
    }
  }
  return notes;
}

/** Writes the plan's files (null deletes) into reviews/, all or nothing. */
export function writeReviewFiles(contentDir: string, writes: ReadonlyMap<string, string | null>): Promise<void> {
  return writeFolderFiles(contentDir, 'reviews', writes);
}

/** Writes the plan's files (null deletes) into reviews/ or jobs/, all or nothing. */
export async function writeFolderFiles(contentDir: string, folder: ImportFolder, writes: ReadonlyMap<string, string | null>): Promise<void> {
  if (writes.size === 0) return;
  const tag = `${process.pid}-${randomBytes(4).toString('hex')}`;
  const staging = path.join(contentDir, `${stagingPrefix(folder)}${tag}`);
  const current = path.join(contentDir, folder);
  const retired = path.join(contentDir, `${retiredPrefix(folder)}${tag}`);
  try {
    await mkdir(staging);
    const entries = await readdir(current, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return [];
      throw error;
    });
    for (const entry of entries) {
      if (writes.has(entry.name)) continue;
      const from = path.join(current, entry.name);
      const to = path.join(staging, entry.name);
      if (entry.isDirectory()) await cp(from, to, { recursive: true });
      else await link(from, to).catch(() => copyFile(from, to, constants.COPYFILE_EXCL));
    }
    for (const [name, text] of writes) {
      if (text === null) continue;
      const handle = await open(path.join(staging, name), 'wx');
      await handle.writeFile(text);
      await handle.sync();
      await handle.close();
    }
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
  let hadFolder = false;
  try {
    hadFolder = await rename(current, retired).then(
      () => true,
      (error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return false;
        throw error;
      },
    );
    await rename(staging, current);
  } catch (error) {
    if (hadFolder) await rename(retired, current);
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
  // The import is in place; a retired folder that cannot be removed now is removed by the next import.
  if (hadFolder) await rm(retired, { recursive: true, force: true }).catch(() => undefined);
}

/** Writes business.json when the folder has none (a restore from /reviews.json), atomically. */
export async function writeBusinessFileIfMissing(contentDir: string, business: unknown): Promise<boolean> {
  const file = path.join(contentDir, 'business.json');
  return createFileIfMissing(file, `${JSON.stringify(business, null, 2)}\n`);
}
