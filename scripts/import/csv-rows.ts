/**
 * The CSV reading that the reviews (csv.ts) and the jobs (job-csv.ts) share, by csv-parse: RFC 4180
 * quoting (a quoted field may hold the delimiter, quotes and line breaks), a UTF-8 byte order mark, and a
 * delimiter guessed from the header line (`,`, `;`, tab or `|`) unless one is given. Headers are compared
 * after `normaliseHeader`.
 */
import { parse, type CsvError } from 'csv-parse/sync';
import type { FileFailure } from './record.ts';

/** A row of the file with its number (the header is row 1), as csv-parse counts records. */
export type CsvRow = { record: string[]; info: { records: number } };

/** The header row and the rows under it, or why the text is not CSV. */
export function readCsvRows(text: string, file: string, options: { delimiter?: string; empty: string }): { header: CsvRow; records: CsvRow[] } | FileFailure {
  let rows: CsvRow[];
  try {
    rows = parse(text, {
      bom: true,
      delimiter: options.delimiter ?? guessDelimiter(text),
      info: true,
      relax_column_count: true,
      skip_empty_lines: true,
    }) as unknown as CsvRow[];
  } catch (error) {
    return { ok: false, file, message: `is not valid CSV: ${(error as CsvError).message}` };
  }
  const [header, ...records] = rows;
  if (!header) return { ok: false, file, message: `is empty: expected ${options.empty}` };
  return { header, records };
}

/** "Date Posted:" → "date posted"; "owner's_response" → "owner s response"; "Job #" → "job". */
export function normaliseHeader(header: string): string {
  return header.trim().toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}

/** The candidate that occurs most often in the header line, outside quotes; a comma when none does. */
function guessDelimiter(text: string): string {
  const firstLine = /^\uFEFF?([^\r\n]*)/.exec(text)![1]!.replace(/"[^"]*"/g, '');
  let best = ',';
  let bestCount = 0;
  for (const candidate of [',', ';', '\t', '|']) {
    const count = firstLine.split(candidate).length - 1;
    if (count > bestCount) [best, bestCount] = [candidate, count];
  }
  return best;
}

/**
 * The columns a mapping names (`--column text="Review Text"`), by field: found first, so a usual header
 * never takes a column the mapping gave to another field. A named header that is missing is a problem.
 */
export function findNamedColumns<F extends string>(normalised: readonly string[], fields: readonly F[], named: Partial<Record<F, string>>, problems: string[]): Partial<Record<F, number>> {
  const found: Partial<Record<F, number>> = {};
  for (const field of fields) {
    const header = named[field];
    if (header === undefined) continue;
    const index = normalised.indexOf(normaliseHeader(header));
    if (index >= 0) found[field] = index;
    else problems.push(`no column "${header}" for ${field}`);
  }
  return found;
}
