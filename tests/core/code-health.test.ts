/**
 * The "done when" of issue 30 that a grep or a count can check, kept true: no function in sidecar/ over
 * 150 lines and `createHub` and `startSidecar` under 80; the small rules written once (one `slugify`, one
 * string comparator, no inline plural); zod's verdicts only through core/schemas/issues.ts (no
 * `z.prettifyError`, no `.issues[0]`); route paths only in `PATHS` (core/urls.ts).
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = path.join(import.meta.dirname, '../..');
const SHIPPED = ['core', 'sidecar', 'site', 'scripts'];

async function sourceFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(path.join(ROOT, dir), { withFileTypes: true })) {
    const p = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await sourceFiles(p)));
    else if (/\.(ts|mjs|astro)$/.test(entry.name)) out.push(p);
  }
  return out;
}

const shipped = async () => (await Promise.all(SHIPPED.map(sourceFiles))).flat();

/** Every function with a body in `source`, by name (`<anonymous>` when it has none), with its length in lines. */
export function functionLengths(file: string, source: string): { name: string; line: number; lines: number }[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  const found: { name: string; line: number; lines: number }[] = [];
  const lineOf = (pos: number) => sf.getLineAndCharacterOfPosition(pos).line + 1;
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const named = (node as { name?: ts.Node }).name ?? (ts.isVariableDeclaration(node.parent) ? node.parent.name : undefined);
      const line = lineOf(node.getStart(sf));
      found.push({ name: named?.getText(sf) ?? '<anonymous>', line, lines: lineOf(node.getEnd()) - line + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

/** Code without its comments, so prose that quotes a path or a rule is not code that breaks it. */
function withoutComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, (comment) => comment.replace(/[^\n]/g, '')).replace(/(^|[^:'"`\\])\/\/[^\n]*/g, '$1');
}

/** `file: line` of each match of `pattern` in the code (not the comments) of `files`. */
async function findInCode(files: string[], pattern: RegExp): Promise<string[]> {
  const hits: string[] = [];
  for (const file of files) {
    const code = withoutComments(await readFile(path.join(ROOT, file), 'utf8'));
    code.split('\n').forEach((text, i) => {
      if (pattern.test(text)) hits.push(`${file}:${i + 1}: ${text.trim()}`);
    });
  }
  return hits;
}

describe('function lengths in sidecar/', () => {
  it('no function over 150 lines; createHub and startSidecar under 80', async () => {
    const lengths = (await Promise.all((await sourceFiles('sidecar')).map(async (file) => functionLengths(file, await readFile(path.join(ROOT, file), 'utf8')).map((f) => ({ file, ...f }))))).flat();
    expect(lengths.length).toBeGreaterThan(300);
    expect(lengths.filter((f) => f.lines > 150).map((f) => `${f.file}:${f.line} ${f.name} (${f.lines} lines)`)).toEqual([]);
    for (const [file, name] of [['sidecar/websub/hub.ts', 'createHub'], ['sidecar/server.ts', 'startSidecar']]) {
      const found = lengths.find((f) => f.file === file && f.name === name);
      expect(found, `${name} in ${file}`).toBeDefined();
      expect(found!.lines, `${name} in ${file}`).toBeLessThan(80);
    }
  });

  it('counts a function from its first line to its closing brace, nested ones included', () => {
    const source = 'function outer() {\n  const inner = () => {\n    return 1;\n  };\n  return inner();\n}\n';
    expect(functionLengths('x.ts', source)).toEqual([
      { name: 'outer', line: 1, lines: 6 },
      { name: 'inner', line: 2, lines: 3 },
    ]);
  });
});

describe('one rule, one place (grep targets of issue 30)', () => {
  it('one slugify (core/text/text-rules.ts)', async () => {
    expect(await findInCode(await shipped(), /\b(function\s+slugify|slugify\s*=)/)).toEqual([expect.stringMatching(/^core\/text\/text-rules\.ts:/)]);
  });

  it('one string comparator (compareText): no inline `a < b ? -1 : …`', async () => {
    const hits = await findInCode(await shipped(), /<\s*[\w.[\]!]+\s*\?\s*-1\s*:/);
    expect(hits).toEqual([expect.stringMatching(/^core\/text\/text-rules\.ts:/)]);
  });

  it('no inline plural: plural() from core/text/text-rules.ts', async () => {
    expect(await findInCode(await shipped(), /[!=]==?\s*1\s*\?\s*'[a-z]*'\s*:\s*'[a-z]*'|>\s*1\s*\?\s*'s'\s*:\s*''/)).toEqual([]);
  });

  it('zod verdicts reach people only through core/schemas/issues.ts: no z.prettifyError, no .issues[0]', async () => {
    expect(await findInCode(await shipped(), /\bprettifyError\b|\.issues\[0\]/)).toEqual([]);
  });

  it('route paths live in PATHS (core/urls.ts): no route string in sidecar/ or scripts/', async () => {
    const files = (await Promise.all(['sidecar', 'scripts'].map(sourceFiles))).flat()
      // verify.ts is copied alone to check a service from outside: it imports no core/urls.ts by design.
      // The logger's event descriptions are prose (the table of docs/operations.md), not routes.
      .filter((f) => f !== 'scripts/verify.ts' && f !== 'sidecar/logger.ts');
    const route = /['"`](?:\$\{[^}]+\})?\/(?:healthz|readyz|metrics|mcp|api\/|search\/|reviews\.json|insights\.json|feed\.xml|feeds\.json|\.well-known\/|log\/)/;
    expect(await findInCode(files, route)).toEqual([]);
  });

  it('recognises what it looks for', async () => {
    const code = withoutComments("// '/healthz' in a comment\nconst a = `${base}/readyz`;\nx.sort((a, b) => (a < b ? -1 : 1));\nn === 1 ? '' : 's';\n");
    expect(code).not.toContain("'/healthz'");
    expect(/['"`](?:\$\{[^}]+\})?\/(?:healthz|readyz)/.test(code)).toBe(true);
    expect(/<\s*[\w.[\]!]+\s*\?\s*-1\s*:/.test(code)).toBe(true);
    expect(/[!=]==?\s*1\s*\?\s*'[a-z]*'\s*:\s*'[a-z]*'/.test(code)).toBe(true);
  });
});
