/**
 * `npm run verify` can be run by a third party without the project (docs/verification.md): it reaches
 * only Node's own modules, zod, and the files the guide tells them to copy.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { walkImports } from '../helpers/import-graph.ts';
import { VERIFY_FILES } from '../log/verify-files.ts';

const ROOT = path.join(import.meta.dirname, '../..');

describe('scripts/verify.ts', () => {
  it('needs only node built-ins, zod and the files the guide lists', async () => {
    const graph = await walkImports(ROOT, [path.join(ROOT, 'scripts/verify.ts')]);
    expect([...graph.keys()].sort()).toEqual([...VERIFY_FILES].sort());
    expect([...new Set([...graph.values()].flat())]).toEqual(['zod']);
  });
});
