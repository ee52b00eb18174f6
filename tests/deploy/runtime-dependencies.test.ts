/**
 * The production install (`npm ci --omit=dev`) holds everything the shipped commands load (issue 19
 * item 1): the import graph from the entry points of `npm start`, `serve`, `build`, `publish`, `import`, `backup`,
 * `restore` (and `init`), the build's child process, the Astro configuration and the site's code the Astro build bundles
 * reaches only packages listed in `dependencies`, and every dependency is reached.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { importsOf, packageOf, walkImports } from '../helpers/import-graph.ts';

const ROOT = path.join(import.meta.dirname, '../..');
const SHIPPED_SCRIPTS = ['start', 'serve', 'build', 'publish', 'import', 'init', 'backup', 'restore'];
/** Run as child processes rather than imported, so the walk starts there too. */
const CHILD_ENTRIES = ['scripts/lib/astro-build-child.ts', 'astro.config.mjs'];
/** Listed for what they are rather than imported: the Node 24 that runs every command. */
const NOT_IMPORTED = ['node'];

type PackageJson = { scripts: Record<string, string>; dependencies: Record<string, string>; devDependencies: Record<string, string> };
const pkg = JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8')) as PackageJson;

async function siteFiles(dir = 'site'): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(path.join(ROOT, dir), { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await siteFiles(p)));
    else if (/\.(ts|mts|js|mjs|astro)$/.test(entry.name)) out.push(p);
  }
  return out;
}

/** The file each shipped npm script runs (`exec node --max-semi-space-size=16 scripts/start.ts` → `scripts/start.ts`). */
function scriptEntries(): string[] {
  return SHIPPED_SCRIPTS.filter((name) => pkg.scripts[name] !== undefined).map((name) => {
    const match = /^exec node (?:--\S+ )*(\S+\.ts)\b/.exec(pkg.scripts[name]!);
    if (!match) throw new Error(`npm run ${name} should run "exec node <file>.ts" (the Node 24 from dependencies), not ${JSON.stringify(pkg.scripts[name])}`);
    return match[1]!;
  });
}

async function runtimeImports(): Promise<Map<string, string[]>> {
  const entries = [...scriptEntries(), ...CHILD_ENTRIES, ...(await siteFiles())];
  const graph = await walkImports(ROOT, entries.map((file) => path.join(ROOT, file)));
  const users = new Map<string, string[]>();
  for (const [file, packages] of graph) for (const name of packages) users.set(name, [...(users.get(name) ?? []), file]);
  return users;
}

describe('the production install', () => {
  it('lists in dependencies every package the shipped commands, the build and the site load', async () => {
    const users = await runtimeImports();
    expect(users.size).toBeGreaterThan(5);
    const missing = [...users].filter(([name]) => !(name in pkg.dependencies)).map(([name, files]) => `${name} (loaded by ${files.join(', ')})`);
    expect(missing).toEqual([]);
  });

  it('lists nothing in dependencies that they do not load, besides the Node runtime', async () => {
    const users = await runtimeImports();
    const unused = Object.keys(pkg.dependencies).filter((name) => !users.has(name) && !NOT_IMPORTED.includes(name));
    expect(unused).toEqual([]);
    for (const name of NOT_IMPORTED) expect(pkg.dependencies).toHaveProperty(name);
  });

  it('runs every shipped command with the Node 24 from dependencies', () => {
    const entries = scriptEntries();
    expect(entries).toEqual(expect.arrayContaining(['scripts/start.ts', 'scripts/build.ts', 'scripts/publish.ts', 'scripts/import/main.ts']));
    expect(pkg.dependencies.node).toMatch(/^\^?24\./);
  });
});

describe('the import reader', () => {
  it('finds static, type-only, side-effect, dynamic and require imports, and ignores prose', () => {
    const source = [
      "import { a } from './a.ts';",
      "import type { B } from 'types-only';",
      'import {',
      '  c,',
      "} from '@scope/pkg/sub';",
      "import 'side-effect';",
      "export * from './b.ts';",
      "const d = await import('dynamic');",
      "require.resolve(`fonts/ttf/${file}`);",
      " * the import's disk side: 'not a module'",
    ].join('\n');
    expect(importsOf(source)).toEqual([
      { specifier: './a.ts', typeOnly: false },
      { specifier: 'types-only', typeOnly: true },
      { specifier: '@scope/pkg/sub', typeOnly: false },
      { specifier: 'side-effect', typeOnly: false },
      { specifier: './b.ts', typeOnly: false },
      { specifier: 'dynamic', typeOnly: false },
      { specifier: 'fonts/ttf/', typeOnly: false },
    ]);
    expect(['@scope/pkg/sub', 'node:fs', 'fs/promises', 'astro:content', 'zod'].map(packageOf)).toEqual(['@scope/pkg', undefined, undefined, undefined, 'zod']);
  });
});
