/**
 * `npm run bench`: runs every benchmark module, prints one table and writes the rows as JSON to
 * bench-results/latest.json. `npm run bench -- build http` runs only the named modules; options are for
 * the modules (`npm run bench -- serve --against <git ref>`).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchRow } from './types.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const MODULES = ['build', 'photos', 'log', 'check-page', 'search', 'http', 'serve', 'mcp', 'websub', 'insights', 'abuse', 'import', 'sync', 'lighthouse', 'proxy', 'install'];
/** Options that take a value: the value is not a module name. */
const VALUED_OPTIONS = ['--against'];

const args = process.argv.slice(2);
const only = args.filter((a, i) => !a.startsWith('-') && !VALUED_OPTIONS.includes(args[i - 1] ?? ''));
const rows: (BenchRow & { module: string })[] = [];
for (const name of MODULES) {
  if (only.length > 0 && !only.includes(name)) continue;
  let mod: { run?: () => Promise<BenchRow[]> };
  try {
    mod = await import(`./${name}.ts`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND' && String(error).includes(`${name}.ts`)) continue;
    throw error;
  }
  if (typeof mod.run !== 'function') continue;
  console.error(`▶ ${name}`);
  const started = performance.now();
  for (const row of await mod.run()) rows.push({ module: name, ...row });
  console.error(`  done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

const format = (v: number) => (Number.isInteger(v) ? String(v) : v >= 100 ? v.toFixed(0) : v.toFixed(2));
const table = [['module', 'measure', 'value', 'unit', 'target', 'ok']].concat(
  rows.map((r) => [r.module, r.name, format(r.value), r.unit, r.target ?? '', r.ok === undefined ? '' : r.ok ? 'yes' : 'NO']),
);
const widths = table[0]!.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
for (const [i, row] of table.entries()) {
  console.log(row.map((cell, j) => (j === 2 ? cell.padStart(widths[j]!) : cell.padEnd(widths[j]!))).join('  '));
  if (i === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '));
}
await mkdir(path.join(ROOT, 'bench-results'), { recursive: true });
const out = path.join(ROOT, 'bench-results', 'latest.json');
await writeFile(out, `${JSON.stringify({ node: process.version, rows }, null, 2)}\n`);
console.log(`\nwritten to ${path.relative(process.cwd(), out)}`);
