/**
 * The project's import graph, read statically: which files a set of entry points reaches, and which
 * packages those files load at run time. Type-only imports are left out (Node strips them); `.astro`
 * files are read whole (front matter and `<script>` tags).
 */
import { builtinModules } from 'node:module';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';

export type ModuleSpecifier = { specifier: string; typeOnly: boolean };

const STATEMENT = /^\s*(?:import|export)\s+(type\s+)?[^'"();]*?\bfrom\s*['"]([^'"]+)['"]|^\s*import\s*['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)|\brequire(?:\.resolve)?\s*\(\s*[`'"]([^`'"$]+)/gm;

/** Every module specifier a file names: static, re-exported, side-effect and dynamic imports, `require` and `require.resolve`. */
export function importsOf(source: string): ModuleSpecifier[] {
  return [...source.matchAll(STATEMENT)].map((m) => ({
    specifier: (m[2] ?? m[3] ?? m[4] ?? m[5])!,
    typeOnly: m[1] !== undefined,
  }));
}

/** The package a bare specifier loads (`@scope/name/sub` → `@scope/name`), or undefined for Node's own modules and Astro's virtual ones. */
export function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith('node:') || builtinModules.includes(specifier) || /^(astro|virtual):/.test(specifier)) return undefined;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

async function isFile(file: string): Promise<boolean> {
  return (await stat(file).catch(() => undefined))?.isFile() ?? false;
}

/**
 * Walks from the entry files (absolute paths) through every relative import. Returns each reached
 * file (relative to `root`) with the packages it loads at run time.
 */
export async function walkImports(root: string, entries: readonly string[]): Promise<Map<string, string[]>> {
  const reached = new Map<string, string[]>();
  const queue = [...entries];
  while (queue.length > 0) {
    const file = queue.pop()!;
    const key = path.relative(root, file);
    if (reached.has(key)) continue;
    const packages: string[] = [];
    reached.set(key, packages);
    for (const { specifier: raw, typeOnly } of importsOf(await readFile(file, 'utf8'))) {
      const specifier = raw.split('?')[0]!;
      if (typeOnly) continue;
      if (specifier.startsWith('.')) {
        const target = path.resolve(path.dirname(file), specifier);
        if (await isFile(target)) queue.push(target);
        continue;
      }
      const name = packageOf(specifier);
      if (name) packages.push(name);
    }
  }
  return reached;
}
