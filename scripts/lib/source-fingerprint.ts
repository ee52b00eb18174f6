/**
 * What a build is made from: the content folder, the public URL and the code that renders it.
 * `npm start` compares this with the served build's manifest to decide whether to rebuild.
 */
import { createHash } from 'node:crypto';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDemoContent } from '../../sidecar/read-config.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
// core/ holds the fallback aspect set of content folders that have none (core/insights/default-aspects.json).
const CODE = ['core', 'site', 'scripts/build.ts', 'scripts/lib', 'astro.config.mjs', 'package-lock.json'];

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

export async function computeSourceFingerprint(options: { contentDir: string; publicUrl: string }): Promise<string> {
  // The demo's pages carry a banner: the same files elsewhere make a different build.
  const hash = createHash('sha256').update(`${options.publicUrl}\n${isDemoContent(options.contentDir) ? 'demo\n' : ''}`);
  const contentDir = path.resolve(options.contentDir);
  const groups: [string, string[]][] = [['content', await walk(contentDir)]];
  for (const entry of CODE) groups.push([entry, await walk(path.join(ROOT, entry))]);
  for (const [label, files] of groups) {
    for (const file of files.sort()) {
      const base = label === 'content' ? contentDir : ROOT;
      hash.update(`${label}:${path.relative(base, file)}\0`).update(await readFile(file)).update('\0');
    }
  }
  return hash.digest('base64url').slice(0, 22);
}
