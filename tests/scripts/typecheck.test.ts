/**
 * `npm run typecheck`, both halves: tsc over every TypeScript file (tsconfig.json), and astro check
 * over the .astro components, layouts and pages, which tsc cannot read (tsconfig.astro-check.json).
 */
import { globSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runScript } from '../helpers/run-script.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe('the type checks', () => {
  it('find no type error in the TypeScript files', async () => {
    const run = await runScript(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '--noEmit', '-p', ROOT], { env: process.env, cwd: ROOT });
    expect(run.code, run.stdout + run.stderr).toBe(0);
  }, 180_000);

  it('find no type error in the .astro files', async () => {
    const astro = join(ROOT, 'node_modules/astro/bin/astro.mjs');
    const run = await runScript(process.execPath, [astro, 'check', '--tsconfig', 'tsconfig.astro-check.json'], { env: { ...process.env, NO_COLOR: '1' }, cwd: ROOT });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    // It did read the pages: every .astro file of site/ is among the files it counts.
    const checked = Number(/Result \((\d+) files\)/.exec(run.stdout)?.[1]);
    expect(checked).toBeGreaterThanOrEqual(globSync('site/**/*.astro', { cwd: ROOT }).length);
    expect(run.stdout).toMatch(/- 0 errors/);
  }, 180_000);
});
