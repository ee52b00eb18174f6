/**
 * The content folder is untrusted input (issue 31 item 4): anyone who can push to the content repository
 * can put a FIFO, a link to /dev/zero or a link to a file outside the folder into it. Every read of the
 * folder goes through here: an entry is judged by `lstat` before anything opens it; only regular files
 * are read; a link is followed only when its target (resolved, links included) is inside the folder and
 * is itself a regular file; the size is checked before reading. The file is opened without following
 * links and non-blocking, and checked again on the open descriptor, so a swap between the check and the
 * open cannot make it read something else. Every refusal is a sentence naming what the entry is.
 */
import { constants } from 'node:fs';
import { lstat, open, realpath, stat } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import path from 'node:path';

/** The biggest JSON file of a content folder read (business.json, a reviews file, aspects.json). */
export const MAX_CONTENT_JSON_BYTES = 64 * 1024 * 1024;

export type ContentEntry =
  | { ok: true; kind: 'file'; file: string; size: number }
  | { ok: true; kind: 'directory'; file: string }
  /** A link to something inside the folder: `target` relative to the folder. */
  | { ok: true; kind: 'link'; file: string; target: string }
  | { ok: false; missing: boolean; reason: string };

export type ContentFileRead = { ok: true; bytes: Buffer } | { ok: false; missing: boolean; reason: string };

/** What an entry that is not a file, a folder or a link is, in words. */
function describeKind(info: Stats): string {
  if (info.isFIFO()) return 'a named pipe (FIFO)';
  if (info.isSocket()) return 'a socket';
  if (info.isCharacterDevice()) return 'a character device';
  if (info.isBlockDevice()) return 'a block device';
  return 'not a regular file';
}

function isInside(root: string, target: string): boolean {
  const relative = path.relative(root, target);
  return relative === '' || (!relative.startsWith(`..${path.sep}`) && relative !== '..' && !path.isAbsolute(relative));
}

const refuse = (reason: string, missing = false) => ({ ok: false as const, missing, reason });
const ONLY_FILES = 'the content folder takes only regular files and folders';

/**
 * Judges `file` (absolute, inside `root`) without opening it. A link is reported with its target when
 * the target is inside the folder; it is refused when the target is outside or missing.
 */
export async function inspectContentEntry(root: string, file: string): Promise<ContentEntry> {
  let info: Stats;
  try {
    info = await lstat(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return refuse(code === 'ENOENT' ? 'file not found' : `cannot read: ${(error as Error).message}`, code === 'ENOENT');
  }
  const realRoot = await realpath(root);
  // A folder on the way may itself be a link (media/ pointing at /home): judge where the entry really is.
  const parent = await realpath(path.dirname(file));
  if (!isInside(realRoot, parent)) return refuse(`is inside ${parent}, outside the content folder (a folder on its path is a link); links may only point inside it`);
  if (info.isFile()) return { ok: true, kind: 'file', file: path.join(parent, path.basename(file)), size: info.size };
  if (info.isDirectory()) return { ok: true, kind: 'directory', file };
  if (!info.isSymbolicLink()) return refuse(`is ${describeKind(info)}; ${ONLY_FILES}`);
  let target: string;
  try {
    target = await realpath(file);
  } catch {
    return refuse('is a link to nothing (its target does not exist)');
  }
  if (!isInside(realRoot, target)) return refuse(`is a link to ${target}, outside the content folder; links may only point inside it`);
  return { ok: true, kind: 'link', file, target: path.relative(realRoot, target) };
}

/**
 * Reads `relative` (a path inside `root`) when it is a regular file, or a link to one inside the folder,
 * of at most `maxBytes`.
 */
export async function readContentFile(root: string, relative: string, maxBytes: number): Promise<ContentFileRead> {
  const entry = await inspectContentEntry(root, path.join(root, relative));
  if (!entry.ok) return entry;
  if (entry.kind === 'directory') return refuse('is a folder, not a file');
  const file = entry.kind === 'link' ? path.join(await realpath(root), entry.target) : entry.file;
  if (entry.kind === 'link') {
    const info = await stat(file);
    if (!info.isFile()) return refuse(`is a link to ${describeTarget(info)} inside the content folder; ${ONLY_FILES}`);
  }
  return readRegularFile(file, maxBytes);
}

function describeTarget(info: Stats): string {
  return info.isDirectory() ? 'a folder' : describeKind(info);
}

/**
 * Reads `file` when it is a regular file of at most `maxBytes`, for a caller that has judged the path
 * already. Opens without following a link and without blocking (a FIFO swapped in would otherwise wait
 * for a writer), and judges the open descriptor.
 */
export async function readRegularFile(file: string, maxBytes: number): Promise<ContentFileRead> {
  let handle;
  try {
    handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    return refuse(`cannot read: ${(error as Error).message}`, (error as NodeJS.ErrnoException).code === 'ENOENT');
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) return refuse(`is ${describeKind(info)}; ${ONLY_FILES}`);
    if (info.size > maxBytes) return refuse(`is ${formatBytes(info.size)}, over the ${formatBytes(maxBytes)} limit`);
    // Never more than the size checked: a file that grows while it is read is cut, not followed.
    const bytes = Buffer.alloc(info.size);
    let read = 0;
    while (read < bytes.length) {
      const { bytesRead } = await handle.read(bytes, read, bytes.length - read, read);
      if (bytesRead === 0) break;
      read += bytesRead;
    }
    return { ok: true, bytes: bytes.subarray(0, read) };
  } finally {
    await handle.close();
  }
}

export function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MB` : `${bytes} bytes`;
}
