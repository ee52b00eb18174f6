import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

async function sourceFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await sourceFiles(p)));
    else if (p.endsWith('.ts')) out.push(p);
  }
  return out;
}

describe('core/', () => {
  it('imports no host library (Express, Astro, the MCP SDK) and reads no environment', async () => {
    const offenders: string[] = [];
    for (const file of await sourceFiles('core')) {
      const text = await readFile(file, 'utf8');
      if (/from\s+['"](express|astro(:|\/|['"])|@modelcontextprotocol\/)/.test(text)) offenders.push(`${file}: host import`);
      if (/process\.env/.test(text)) offenders.push(`${file}: process.env`);
    }
    expect(offenders).toEqual([]);
  });
});
