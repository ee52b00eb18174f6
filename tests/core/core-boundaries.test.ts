/**
 * core/ stays pure (STYLE.md "Pure core, thin adapters"): no host library, no environment, file I/O only
 * in files that say so, and its folders depend on one another in one direction only.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { importsOf as readImports } from '../helpers/import-graph.ts';

const ROOT = path.join(import.meta.dirname, '../..');

async function sourceFiles(dir: string, pattern = /\.ts$/): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(path.join(ROOT, dir), { withFileTypes: true })) {
    const p = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await sourceFiles(p, pattern)));
    else if (pattern.test(p)) out.push(p);
  }
  return out;
}

/** Each file of `dirs` (and the `.astro`/`.mjs` files among them) with the project paths its relative imports reach. */
async function resolvedImports(dirs: string[]) {
  const files = (await Promise.all(dirs.map((d) => sourceFiles(d, /\.(ts|mjs|astro)$/)))).flat();
  return Promise.all(
    files.map(async (file) => ({
      file,
      targets: importsOf(await readFile(path.join(ROOT, file), 'utf8'))
        .filter((s) => s.startsWith('.'))
        .map((s) => path.posix.normalize(path.posix.join(path.posix.dirname(file), s))),
    })),
  );
}

/** Every module specifier a file imports, type-only imports included. */
function importsOf(source: string): string[] {
  return readImports(source).map((i) => i.specifier);
}

async function readCore() {
  const files = await sourceFiles('core');
  return Promise.all(files.map(async (file) => ({ file, imports: importsOf(await readFile(path.join(ROOT, file), 'utf8')) })));
}

/** The folder graph: `core` for the files at the top, `core/<folder>` for each folder's files. */
function folderOf(file: string): string {
  const parts = file.split('/');
  return parts.length > 2 ? `${parts[0]}/${parts[1]}` : parts[0]!;
}

function findFolderCycles(edges: Map<string, Set<string>>): string[][] {
  const cycles: string[][] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string) => {
    state.set(node, 'visiting');
    stack.push(node);
    for (const next of [...(edges.get(node) ?? [])].sort()) {
      if (state.get(next) === 'visiting') cycles.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of [...edges.keys()].sort()) if (!state.has(node)) visit(node);
  return cycles;
}

describe('core/', () => {
  it('imports no host library (Express, Astro, the MCP SDK) and reads no environment', async () => {
    const offenders: string[] = [];
    for (const file of await sourceFiles('core')) {
      const text = await readFile(path.join(ROOT, file), 'utf8');
      if (importsOf(text).some((i) => /^(express|astro(:|\/|$)|@modelcontextprotocol\/)/.test(i))) offenders.push(`${file}: host import`);
      if (/process\.env/.test(text)) offenders.push(`${file}: process.env`);
    }
    expect(offenders).toEqual([]);
  });

  it('does no network or process I/O, and reads files only in *-fs.ts and read-*.ts files', async () => {
    const offenders: string[] = [];
    for (const { file, imports } of await readCore()) {
      const name = path.basename(file);
      for (const i of imports) {
        if (/^node:(http|https|http2|net|tls|dgram|dns|child_process|worker_threads|cluster)$/.test(i)) offenders.push(`${file}: ${i}`);
        if (/^(node:)?fs(\/|$)/.test(i) && !/-fs\.ts$|^read-/.test(name)) offenders.push(`${file}: ${i}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it('has no import cycle between its folders', async () => {
    const edges = new Map<string, Set<string>>();
    for (const { file, imports } of await readCore()) {
      const from = folderOf(file);
      for (const i of imports.filter((s) => s.startsWith('.'))) {
        const to = folderOf(path.posix.normalize(path.posix.join(path.posix.dirname(file), i)));
        if (to !== from && to.startsWith('core')) edges.set(from, (edges.get(from) ?? new Set()).add(to));
      }
    }
    expect(edges.size).toBeGreaterThan(5);
    expect(findFolderCycles(edges).map((c) => c.join(' → '))).toEqual([]);
  });
});

/** Code that names the project's own content/ folder (rather than CONTENT_DIR or a folder of its own). */
const PROJECT_CONTENT_PATH = new RegExp(
  [
    String.raw`\b(?:ROOT|PROJECT_ROOT|PROJECT)\s*,\s*['"]content\b`,
    String.raw`\broot\s*,\s*['"]content\/`,
    String.raw`\b(?:resolve|readFile|readFileSync|readJson|loadContent|readInsightsContent|existsSync|cp)\(\s*['"]content\b`,
    String.raw`['"]\.\.['"]\s*,\s*['"]content['"]`,
    String.raw`new URL\(\s*['"](?:\.\.\/)*content\/`,
    String.raw`\(\{\s*contentDir:\s*['"]content['"]`,
  ].join('|'),
  'g',
);

describe('rooms of the project', () => {
  const offendersOf = (rows: { file: string; targets: string[] }[], into: RegExp) =>
    rows.flatMap(({ file, targets }) => targets.filter((t) => into.test(t)).map((t) => `${file} → ${t}`));

  it('nothing outside tests/ imports tests/ (the corpus, fixtures and helpers that tools need live in tools/)', async () => {
    const rows = await resolvedImports(['core', 'sidecar', 'site', 'scripts', 'tools']);
    expect(rows.length).toBeGreaterThan(100);
    expect(offendersOf(rows, /^tests(\/|$)/)).toEqual([]);
  });

  it('shipped code (core/, sidecar/, site/, scripts/) imports no developer tool of tools/', async () => {
    const rows = await resolvedImports(['core', 'sidecar', 'site', 'scripts']);
    expect(offendersOf(rows, /^tools(\/|$)/)).toEqual([]);
  });

  it('scripts/ reaches the WebSub wing through its front door (sidecar/websub/index.ts), never its internals', async () => {
    const rows = await resolvedImports(['scripts']);
    expect(offendersOf(rows, /^sidecar\/websub\/(?!index\.ts$)/)).toEqual([]);
    expect(offendersOf(rows, /^sidecar\/websub\/index\.ts$/).length).toBeGreaterThan(0);
  });

  it('publish reads the service only through its typed answers: /readyz by ReadinessSchema, never its prose', async () => {
    const source = await readFile(path.join(ROOT, 'scripts/publish.ts'), 'utf8');
    expect(source).toMatch(/ReadinessSchema\.safeParse/);
    // The old way: searching /readyz's message for the build id.
    expect(source).not.toMatch(/\.message\??\.(?:includes|match|startsWith)\(/);
    expect(source).not.toMatch(/`build \$\{/);
  });

  it('scripts/ holds entry points: nothing the service runs (core/, sidecar/, site/) imports scripts/', async () => {
    const rows = await resolvedImports(['core', 'sidecar', 'site']);
    expect(offendersOf(rows, /^scripts(\/|$)/)).toEqual([]);
  });

  it('the service is no entry point: sidecar/ reads no environment or .env and runs nothing on its own (scripts/serve.ts runs it)', async () => {
    const offenders: string[] = [];
    for (const file of await sourceFiles('sidecar')) {
      const text = await readFile(path.join(ROOT, file), 'utf8');
      if (/import\.meta\.main|process\.env\b|\bparseEnv\b|\.env\b['"`]/.test(text)) offenders.push(file);
    }
    expect(offenders).toEqual([]);
  });

  it('each scripts/ entry point reads its configuration through readEntryConfig (scripts/lib/entry-config.ts), the one place that parses it', async () => {
    const files = await sourceFiles('scripts');
    const parsing: string[] = [];
    const entries: string[] = [];
    for (const file of files) {
      const text = await readFile(path.join(ROOT, file), 'utf8');
      if (/\bparseConfig\(|\bparseEnv\(/.test(text) && file !== 'scripts/lib/entry-config.ts') parsing.push(file);
      if (/\breadEntryConfig\(/.test(text) && file !== 'scripts/lib/entry-config.ts') entries.push(file);
    }
    expect(parsing).toEqual([]);
    // backup and restore through their shared prologue, readHubFileCommand (scripts/lib/hub-backup.ts).
    expect(entries.sort()).toEqual(['scripts/build.ts', 'scripts/hooks/install.ts', 'scripts/import/main.ts', 'scripts/init.ts', 'scripts/jobs.ts', 'scripts/lib/hub-backup.ts',
      'scripts/publish.ts', 'scripts/serve.ts', 'scripts/start.ts', 'scripts/strip-photos.ts', 'scripts/sync/main.ts', 'scripts/witness-request.ts']);
  });

  it('outgoing HTTPS is one room (sidecar/outbound/): no other shipped file imports node:https, and only the hub uses its callback preset', async () => {
    const files = (await Promise.all(['core', 'sidecar', 'site', 'scripts'].map((d) => sourceFiles(d, /\.(ts|mjs|astro)$/)))).flat();
    const https = [];
    for (const file of files) if (importsOf(await readFile(path.join(ROOT, file), 'utf8')).includes('node:https')) https.push(file);
    expect(https).toEqual(['sidecar/outbound/outbound-client.ts']);
    const rows = await resolvedImports(['core', 'sidecar', 'site', 'scripts']);
    const outsideTheHub = rows.filter(({ file }) => !file.startsWith('sidecar/websub/'));
    expect(offendersOf(outsideTheHub, /^sidecar\/websub\/callback-client\.ts$/)).toEqual([]);
  });

  it('reads a build manifest in one place (readManifest in core/publishing/build-folders-fs.ts)', async () => {
    const files = (await Promise.all(['core', 'sidecar', 'site', 'scripts', 'tools'].map((d) => sourceFiles(d, /\.(ts|mjs|astro)$/)))).flat();
    const offenders: string[] = [];
    for (const file of files.filter((f) => f !== 'core/publishing/build-folders-fs.ts')) {
      const text = await readFile(path.join(ROOT, file), 'utf8');
      if (/readFile(?:Sync)?\([^;]*(?:MANIFEST_FILE|_manifest\.json)/.test(text)) offenders.push(file);
    }
    expect(offenders).toEqual([]);
  });

  it('nothing the project ships, tests or runs as a tool reads the owner’s content/ (the demo is examples/demo, fixtures are the tests’ own)', async () => {
    const files = (await Promise.all(['core', 'sidecar', 'site', 'scripts', 'tools', 'tests'].map((d) => sourceFiles(d, /\.(ts|mjs|astro)$/)))).flat();
    files.push('astro.config.mjs', 'vitest.config.ts');
    expect(files.length).toBeGreaterThan(200);
    const offenders: string[] = [];
    for (const file of files.filter((f) => f !== 'tests/core/core-boundaries.test.ts')) {
      const text = await readFile(path.join(ROOT, file), 'utf8');
      for (const match of text.matchAll(PROJECT_CONTENT_PATH)) offenders.push(`${file}: ${match[0]}`);
    }
    expect(offenders).toEqual([]);
  });

  it('recognises the ways code has named the project’s content folder', () => {
    const named = [
      "readJson('content/aspects.json')",
      "join(root, 'content/business.json')",
      "path.resolve('content')",
      "path.join(ROOT, 'content')",
      "join(import.meta.dirname, '..', '..', 'content')",
      "new URL('../../content/aspects.json', import.meta.url)",
      "buildSite({ contentDir: 'content', publicUrl })",
      "readInsightsContent('content')",
    ];
    expect(named.filter((code) => !new RegExp(PROJECT_CONTENT_PATH.source).test(code))).toEqual([]);
    // A test's own folder named content is fine.
    expect(new RegExp(PROJECT_CONTENT_PATH.source).test("path.join(work, 'content')")).toBe(false);
  });

  it('scripts/ holds the shipped commands and tools/ the developer tools, under the same npm run names', async () => {
    const { scripts } = JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    const folderOf = (name: string) => /^exec node (?:--\S+ )*(\w+)\//.exec(scripts[name] ?? '')?.[1];
    for (const name of ['start', 'serve', 'build', 'publish', 'init', 'import', 'sync', 'hooks:install']) expect(folderOf(name), name).toBe('scripts');
    for (const name of ['bench', 'generate', 'eval', 'train', 'screenshots']) expect(folderOf(name), name).toBe('tools');
  });
});

describe('findFolderCycles', () => {
  it('finds a cycle through several folders, and none in a one-way graph', () => {
    const graph = (pairs: [string, string][]) => {
      const edges = new Map<string, Set<string>>();
      for (const [a, b] of pairs) edges.set(a, (edges.get(a) ?? new Set()).add(b));
      return edges;
    };
    expect(findFolderCycles(graph([['a', 'b'], ['b', 'c'], ['c', 'a']]))).toEqual([['a', 'b', 'c', 'a']]);
    expect(findFolderCycles(graph([['a', 'b'], ['b', 'c'], ['a', 'c']]))).toEqual([]);
  });
});
