/**
 * `npm run verify` can be run by a third party without the project (docs/verification.md): it reaches
 * only Node's own modules and the few core/ files the guide tells them to copy.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { walkImports } from '../helpers/import-graph.ts';

const ROOT = path.join(import.meta.dirname, '../..');

describe('scripts/verify.ts', () => {
  it('needs only node built-ins and the core/log files the guide lists', async () => {
    const graph = await walkImports(ROOT, [path.join(ROOT, 'scripts/verify.ts')]);
    expect([...graph.keys()].sort()).toEqual([
      'core/log/canonical-json.ts',
      'core/log/checkpoint.ts',
      'core/log/merkle.ts',
      'core/log/note.ts',
      'core/log/proof-check.ts',
      'core/log/proof-format.ts',
      'core/log/review-digest-input.ts',
      'core/log/review-digest.ts',
      'core/log/sha256.ts',
      'core/log/tiles.ts',
      'core/text/text-rules.ts',
      'scripts/verify-proof.ts',
      'scripts/verify.ts',
    ]);
    expect([...graph.values()].flat()).toEqual([]);
  });
});
