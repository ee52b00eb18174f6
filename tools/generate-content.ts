/**
 * Writes the demo content folder deterministically (same arguments, same bytes).
 *
 *   node tools/generate-content.ts [--out DIR] [--count N] [--seed S] [--end YYYY-MM-DD]
 *
 * Defaults reproduce the committed demo, examples/demo/: 492 reviews (480 verified) over the 45 months up to
 * 2026-11-15, at two locations, 38 of them in Spanish with Google's translation, with jobs and photos. Any
 * other arguments give the same business without those (for benchmarks: --count 100000 --out .bench-content/100k).
 */
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { describeZodIssue } from '../core/schemas/issues.ts';
import { DEFAULT_OPTIONS, generateContent, type GenerateOptions } from './content-generator/writer.ts';

const USAGE = 'usage: node tools/generate-content.ts [--out DIR] [--count N] [--seed S] [--end YYYY-MM-DD]';

const OptionsSchema = z.strictObject({
  out: z.string().min(1).default(DEFAULT_OPTIONS.outDir),
  count: z.coerce.number().int().min(1).max(10_000_000).default(DEFAULT_OPTIONS.count),
  seed: z.string().min(1).default(DEFAULT_OPTIONS.seed),
  end: z.iso.date().default(DEFAULT_OPTIONS.end),
});

function parseOptions(argv: string[]): { ok: true; options: GenerateOptions } | { ok: false; message: string } {
  let values: Record<string, unknown>;
  try {
    values = parseArgs({
      args: argv,
      options: { out: { type: 'string' }, count: { type: 'string' }, seed: { type: 'string' }, end: { type: 'string' } },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (error) {
    return { ok: false, message: (error as Error).message };
  }
  const parsed = OptionsSchema.safeParse(values, { error: describeZodIssue });
  if (!parsed.success) {
    return { ok: false, message: parsed.error.issues.map((i) => `--${i.path.join('.')}: ${i.message}`).join('\n') };
  }
  const { out, count, seed, end } = parsed.data;
  return { ok: true, options: { outDir: out, count, seed, end } };
}

const result = parseOptions(process.argv.slice(2));
if (!result.ok) {
  console.error(`${result.message}\n${USAGE}`);
  process.exit(2);
}
const started = performance.now();
const summary = generateContent(result.options);
const seconds = ((performance.now() - started) / 1000).toFixed(1);
console.log(
  `wrote ${summary.reviews} reviews (${summary.verified} verified, ${summary.first} to ${summary.last}) ` +
    `in ${summary.files} files under ${result.options.outDir}/reviews in ${seconds} s`,
);
