/** core/ stays pure (STYLE.md "Pure core, thin adapters"): the MCP-side core modules import no adapter. */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.join(import.meta.dirname, '../..');

describe.each(['core/paging.ts', 'core/rating-summary.ts'])('%s', (file) => {
  it('imports neither the MCP SDK, Express, Node I/O nor process.env', async () => {
    const source = await readFile(path.join(ROOT, file), 'utf8');
    const imports = [...source.matchAll(/from\s+'([^']+)'/g)].map((m) => m[1]!);
    expect(imports.filter((i) => /modelcontextprotocol|express|^node:(fs|http|net|child_process)/.test(i))).toEqual([]);
    expect(source).not.toContain('process.env');
  });
});
