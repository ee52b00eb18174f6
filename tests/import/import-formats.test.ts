/** The import format table: the usage text, the command line's checks and the dispatch all come from its rows. */
import { describe, expect, it } from 'vitest';
import { parseImportArgs, USAGE } from '../../scripts/import/cli-options.ts';
import { IMPORT_FORMATS } from '../../scripts/import/formats.ts';
import { ZOD_DEFAULT_PHRASES } from '../../core/schemas/issues.ts';

describe('IMPORT_FORMATS', () => {
  it('has one usage line per row, and every format flag under its format', () => {
    expect(USAGE.split('\n')[0]).toBe(`usage: npm run import -- <${[...IMPORT_FORMATS.map((f) => f.name), 'jobs'].join('|')}> <file…> [options]`);
    for (const format of IMPORT_FORMATS) {
      expect(USAGE).toContain(`  ${format.name.padEnd(8)} ${format.summary}`);
      for (const flag of format.flags) expect(USAGE).toContain(`--${flag.name}`);
    }
  });

  it.each(IMPORT_FORMATS.map((f) => [f.name, f] as const))('dispatches %s to its own reader', async (name, format) => {
    const flags = format.flags.some((f) => f.name === 'source') ? ['--source', 'yelp'] : [];
    const parsed = await parseImportArgs([name, 'reviews.file', ...flags]);
    expect(parsed.ok && parsed.options.format).toBe(format);
  });

  it.each(IMPORT_FORMATS.filter((f) => f.flags.length > 0).map((f) => [f.name, f] as const))("refuses %s's own flags with any other format", async (name, format) => {
    const other = IMPORT_FORMATS.find((f) => f !== format)!;
    const flag = format.flags[0]!;
    const parsed = await parseImportArgs([other.name, 'reviews.file', `--${flag.name}`, ...(flag.type === 'string' ? ['x'] : [])]);
    expect(parsed).toEqual({ ok: false, message: `--${flag.name}: only for ${name}` });
  });

  it('names every problem of a bad command line at once, in our words', async () => {
    const parsed = await parseImportArgs(['gogle', '--author-style', 'nicknames', '--time-zone', 'Mars/Olympus']);
    expect(parsed.ok).toBe(false);
    const message = parsed.ok ? '' : parsed.message;
    expect(message.split('\n')).toEqual([
      'unknown format "gogle": google, csv, json or jobs',
      'name at least one file to import',
      '--author-style: must be one of full, initials',
      '--time-zone: is not a time zone name (e.g. America/Chicago)',
    ]);
    expect(message).not.toMatch(ZOD_DEFAULT_PHRASES);
  });
});
