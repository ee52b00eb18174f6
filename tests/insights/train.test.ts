import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..', '..');

describe('npm run train', () => {
  // Six trainings (the shipped layer and five cross-fitted folds): about 25 s alone, more beside the suite.
  it('reproduces the committed learned weights and measured error table byte for byte', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'train-insights-'));
    try {
      const out = join(dir, 'weights.json');
      const accuracy = join(dir, 'accuracy.json');
      await run(process.execPath, [join(ROOT, 'tools/train-insights.ts'), '--out', out, '--accuracy-out', accuracy], { cwd: ROOT });
      const committed = await readFile(join(ROOT, 'core/insights/learned-weights.json'), 'utf8');
      // Compared as text, not parsed: the promise is the same bytes.
      expect((await readFile(out, 'utf8')) === committed, 'learned-weights.json is stale: run npm run train').toBe(true);
      const table = await readFile(join(ROOT, 'core/insights/aspect-accuracy.json'), 'utf8');
      expect((await readFile(accuracy, 'utf8')) === table, 'aspect-accuracy.json is stale: run npm run eval').toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 600_000);
});
