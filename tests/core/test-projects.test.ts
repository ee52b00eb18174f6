/**
 * The `unit` test project (vitest.config.ts) runs without the global set-up: its files must need no
 * PostgreSQL, no browser, no site build and no running service, directly or through a test helper.
 */
import { glob, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { UNIT_TESTS } from '../../vitest.config.ts';
import { importsOf } from '../helpers/import-graph.ts';

const ROOT = path.join(import.meta.dirname, '../..');

/** Test helpers that need the global set-up or start something slow. */
const INTEGRATION_ONLY = /(^|\/)(postgres|browser|site-build|sidecar|harness|subscribed-service|mcp-fixture|run-script)\.ts$/;

/** Every test or developer-tool module a file reaches through relative imports, the file included. */
async function reachableTestFiles(file: string, seen = new Set<string>()): Promise<Set<string>> {
  if (seen.has(file) || !/^(tests|tools)\//.test(file) || !file.endsWith('.ts')) return seen;
  seen.add(file);
  const source = await readFile(path.join(ROOT, file), 'utf8');
  for (const { specifier } of importsOf(source).filter((i) => i.specifier.startsWith('.'))) {
    await reachableTestFiles(path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier)), seen);
  }
  return seen;
}

describe('the unit test project', () => {
  it('holds only files that need no PostgreSQL, browser, site build or running service', async () => {
    const files: string[] = [];
    for (const pattern of UNIT_TESTS) for await (const file of glob(pattern, { cwd: ROOT })) files.push(file);
    expect(files.length).toBeGreaterThan(10);
    const offenders: string[] = [];
    for (const file of files) {
      for (const reached of await reachableTestFiles(file)) {
        if (INTEGRATION_ONLY.test(reached)) offenders.push(`${file} → ${reached}`);
        else if (/\binject\(['"]/.test(await readFile(path.join(ROOT, reached), 'utf8'))) offenders.push(`${file} → ${reached}: inject()`);
      }
    }
    expect(offenders).toEqual([]);
  });
});
