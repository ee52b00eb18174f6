/**
 * Comments and docs that name a file name one that exists (issue 21: six of them named files that had
 * moved, one in the owner-facing aspects file). A path from the repository root (`sidecar/http/errors.ts`)
 * must be a tracked file or folder; a bare file name in a comment (`load-build.ts`) must be some tracked
 * file's name.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.join(import.meta.dirname, '../..');
const TRACKED = execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' }).split('\n').filter(Boolean);
const FOLDERS = new Set(TRACKED.flatMap((f) => f.split('/').slice(0, -1).map((_, i, parts) => parts.slice(0, i + 1).join('/'))));
const NAMES = new Set(TRACKED.map((f) => path.posix.basename(f)));

const REPO_PATH = /(?<![\w./-])((?:core|sidecar|scripts|site|tools|tests|docs|examples)\/[\w./\-[\]]*\w(?:\])?(?:\.\w+)?)/g;
const FILE_NAME = /(?<![\w./-])([\w-]+\.(?:ts|astro|mjs))(?![\w-])/g;
/** Not files: MCP method names, and the placeholders of the notes on how to run things. */
const NOT_FILES = new Set(['tools/list', 'tools/call', 'tests/some-dir', 'file.ts']);

function namedPaths(text: string): string[] {
  const found = [...text.matchAll(REPO_PATH)].map((m) => m[1]!.replace(/\]$/, '').replace(/\.$/, ''));
  return found.filter((p) => !p.includes('…') && !p.includes('*') && !NOT_FILES.has(p) && !TRACKED.includes(p) && !FOLDERS.has(p.replace(/\/$/, '')));
}

function namedFiles(text: string): string[] {
  return [...text.matchAll(FILE_NAME)].map((m) => m[1]!).filter((name) => !NOT_FILES.has(name) && !NAMES.has(name));
}

const commentsOf = (source: string) => (source.match(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g) ?? []).join('\n');

describe('files named in comments and docs', () => {
  it('exist, in the code’s comments', () => {
    const sources = TRACKED.filter((f) => /^(core|sidecar|scripts|site|tools|tests)\//.test(f) && /\.(ts|astro|mjs|js)$/.test(f));
    expect(sources.length).toBeGreaterThan(300);
    const missing = sources.flatMap((file) => {
      const comments = commentsOf(readFileSync(path.join(ROOT, file), 'utf8'));
      return [...namedPaths(comments), ...namedFiles(comments)].map((named) => `${file}: ${named}`);
    });
    expect(missing).toEqual([]);
  });

  it('exist, in the docs and in the JSON files’ $comment', () => {
    const docs = TRACKED.filter((f) => f.endsWith('.md') && !f.startsWith('tools/insights-corpus/'));
    const jsonComments = TRACKED.filter((f) => f.endsWith('.json') && !f.includes('fixtures') && !f.startsWith('tools/insights-corpus/') && f !== 'package-lock.json');
    const missing = [
      ...docs.flatMap((file) => namedPaths(readFileSync(path.join(ROOT, file), 'utf8')).map((named) => `${file}: ${named}`)),
      ...jsonComments.flatMap((file) => {
        const comment = /"\$comment":\s*"((?:[^"\\]|\\.)*)"/.exec(readFileSync(path.join(ROOT, file), 'utf8'))?.[1] ?? '';
        return [...namedPaths(comment), ...namedFiles(comment)].map((named) => `${file}: ${named}`);
      }),
    ];
    expect(missing).toEqual([]);
  });

  it('recognises a path that does not exist', () => {
    expect(namedPaths('see core/insights/aspect-config-schema.ts and sidecar/http/errors.ts')).toEqual(['core/insights/aspect-config-schema.ts']);
    expect(namedFiles('(load-build.ts, no-such-file.ts)')).toEqual(['no-such-file.ts']);
  });
});
