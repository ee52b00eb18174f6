/**
 * The README and docs/ stay navigable and runnable: every relative link points to a file that exists,
 * every `#anchor` to a heading of its target (GitHub's slugs), and every `npm run <script>` shown is a
 * script of package.json. docs/HELPERS.md (notes for the project's own helpers, not for readers) is left out.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const DOCS = ['README.md', ...readdirSync('docs').filter((f) => f.endsWith('.md') && f !== 'HELPERS.md').map((f) => `docs/${f}`)];
const scripts = Object.keys((JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts);

/** The text outside fenced code blocks and inline code spans, where Markdown links live. */
function stripCode(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function listAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, heading] of markdown.replace(/^```[\s\S]*?^```/gm, '').matchAll(/^#{1,6} +(.+?) *#* *$/gm)) {
    const slug = heading!.toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '').replace(/ /g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** Every link target of a Markdown file: `[text](target)` and `![alt](target)`, titles left out. */
function listLinks(markdown: string): string[] {
  return [...stripCode(markdown).matchAll(/\]\(([^)\s]+)(?: "[^"]*")?\)/g)].map((m) => m[1]!);
}

describe('the documentation', () => {
  it('is the README and one file per topic under docs/', () => {
    expect(DOCS).toEqual(expect.arrayContaining(['README.md', 'docs/api.md', 'docs/deploy.md', 'docs/operations.md', 'docs/websub.md']));
  });

  it('keeps the README a front door of at most 300 lines', () => {
    expect(readFileSync('README.md', 'utf8').split('\n').length).toBeLessThanOrEqual(300);
  });

  it('links only to files and headings that exist', () => {
    const broken: string[] = [];
    for (const file of DOCS) {
      for (const link of listLinks(readFileSync(file, 'utf8'))) {
        if (/^[a-z][a-z+.-]*:/i.test(link)) continue; // https:, mailto: … are not ours to check
        const [target = '', anchor] = link.split('#');
        const resolved = target === '' ? file : path.normalize(path.join(path.dirname(file), decodeURI(target)));
        if (!existsSync(resolved)) {
          broken.push(`${file}: ${link} (no file ${resolved})`);
          continue;
        }
        if (anchor !== undefined && !listAnchors(readFileSync(resolved, 'utf8')).has(anchor)) {
          broken.push(`${file}: ${link} (no heading #${anchor} in ${resolved})`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it('shows only npm run commands that package.json has', () => {
    const unknown: string[] = [];
    for (const file of DOCS) {
      for (const [, name] of readFileSync(file, 'utf8').matchAll(/\bnpm run ([a-z][\w:.-]*)/g)) {
        if (!scripts.includes(name!)) unknown.push(`${file}: npm run ${name}`);
      }
    }
    expect(unknown).toEqual([]);
  });

  it('finds a broken link, a missing heading and an unknown command (the checks can fail)', () => {
    expect(listLinks('[a](docs/nowhere.md#x) `[b](ignored.md)`')).toEqual(['docs/nowhere.md#x']);
    expect(listAnchors('# Title\n## The service\'s own `/reviews.json`\n## Logs\n## Logs')).toEqual(
      new Set(['title', 'the-services-own-reviewsjson', 'logs', 'logs-1']),
    );
    expect(scripts).not.toContain('no-such-script');
  });
});
