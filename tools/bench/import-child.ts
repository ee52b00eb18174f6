/**
 * One `npm run import` for the import benchmark: the CLI's own parsing and run, then one JSON line
 * with the summary, this process's peak memory and its CPU time (which the parent cannot read of a child).
 */
import path from 'node:path';
import { parseImportArgs } from '../../scripts/import/cli-options.ts';
import { runImport } from '../../scripts/import/main.ts';
import { readEntryConfig } from '../../scripts/lib/entry-config.ts';

const parsed = await parseImportArgs(process.argv.slice(2));
if (!parsed.ok) throw new Error(parsed.message);
const { contentDir } = readEntryConfig().config;
const lines: string[] = [];
const code = await runImport(parsed.options, { contentDir: path.resolve(contentDir), out: (l) => lines.push(l), err: (l) => lines.push(l) });
if (code !== 0) {
  console.log(lines.join('\n'));
  process.exit(code);
}
const usage = process.resourceUsage();
console.log(JSON.stringify({ summary: lines.at(-1), maxRssBytes: usage.maxRSS * 1024, cpuMs: (usage.userCPUTime + usage.systemCPUTime) / 1000 }));
