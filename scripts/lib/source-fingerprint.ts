/**
 * What a build is made from: the content folder, the public URL and the code that renders it.
 * `npm start` compares this with the served build's manifest to decide whether to rebuild.
 *
 * The content folder is untrusted input (core/read-content-file.ts): its walk never follows a
 * link, refuses a link that points out of the folder and anything that is not a regular file or a folder
 * (a FIFO would hang the read, a link to /dev/zero would never end), and reads a file only up to a cap;
 * a bigger file (a git pack) counts by its size and modification time instead of its bytes.
 */
import { createHash, type Hash } from 'node:crypto';
import { lstat, readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { inspectContentEntry, readRegularFile } from '../../core/read-content-file.ts';
import { isDemoContent } from './entry-config.ts';
import { plural } from '../../core/text/text-rules.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
// core/ holds the fallback aspect set of content folders that have none (core/insights/default-aspects.json).
const CODE = ['core', 'site', 'scripts/build.ts', 'scripts/lib', 'astro.config.mjs', 'package-lock.json'];
/** Bytes of one content file read into the fingerprint; past this, its size and time stand for it. */
const MAX_HASHED_BYTES = 64 * 1024 * 1024;

export type SourceFingerprint = { ok: true; fingerprint: string } | { ok: false; message: string };

async function walk(target: string): Promise<string[]> {
  try {
    const entries = await readdir(target, { withFileTypes: true });
    const nested = await Promise.all(
      entries.map((e) => (e.isDirectory() ? walk(path.join(target, e.name)) : Promise.resolve([path.join(target, e.name)]))),
    );
    return nested.flat();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOTDIR') return [target];
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

/** Hashes every entry of the content folder, or names each one it refuses. */
async function hashContent(hash: Hash, contentDir: string): Promise<string[]> {
  const refused: string[] = [];
  const files = (await walk(contentDir)).sort();
  for (const file of files) {
    const name = path.relative(contentDir, file);
    const entry = await inspectContentEntry(contentDir, file);
    if (!entry.ok) {
      refused.push(`${name}: ${entry.reason}`);
      continue;
    }
    if (entry.kind === 'directory') continue;
    // A link inside the folder counts by where it points; its target is walked on its own.
    if (entry.kind === 'link') {
      hash.update(`content:${name}\0link:${entry.target}\0`);
      continue;
    }
    if (entry.size > MAX_HASHED_BYTES) {
      const info = await lstat(file);
      hash.update(`content:${name}\0size:${info.size} mtime:${info.mtimeMs}\0`);
      continue;
    }
    const read = await readRegularFile(file, MAX_HASHED_BYTES);
    if (!read.ok) refused.push(`${name}: ${read.reason}`);
    else hash.update(`content:${name}\0`).update(read.bytes).update('\0');
  }
  return refused;
}

export async function computeSourceFingerprint(options: { contentDir: string; publicUrl: string }): Promise<SourceFingerprint> {
  // The demo's pages carry a banner: the same files elsewhere make a different build.
  const hash = createHash('sha256').update(`${options.publicUrl}\n${isDemoContent(options.contentDir) ? 'demo\n' : ''}`);
  const contentDir = path.resolve(options.contentDir);
  const refused = await hashContent(hash, contentDir);
  if (refused.length > 0) {
    return { ok: false, message: [`Content folder ${contentDir} refused: ${plural(refused.length, 'entry', { many: 'entries', format: String })}`, ...refused.map((r) => `  - ${r}`)].join('\n') };
  }
  for (const entry of CODE) {
    for (const file of (await walk(path.join(ROOT, entry))).sort()) {
      hash.update(`${entry}:${path.relative(ROOT, file)}\0`).update(await readFile(file)).update('\0');
    }
  }
  return { ok: true, fingerprint: hash.digest('base64url').slice(0, 22) };
}
