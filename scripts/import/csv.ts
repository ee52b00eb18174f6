/**
 * Any CSV export of reviews (Yelp, Angi, Facebook, a CRM, a form tool), parsed by csv-parse: RFC 4180
 * quoting (a quoted field may hold the delimiter, quotes and line breaks), a UTF-8 byte order mark,
 * and a delimiter guessed from the header line (`,`, `;`, tab or `|`) unless the mapping names one.
 *
 * Columns are found by the mapping (flags or a mapping file, csv-mapping.ts) or else by their usual
 * headers. A row's id is the id column when there is one; without it, the row's date and author, so
 * one customer's two reviews on one day would count as one (the later row wins).
 */
import { findNamedColumns, normaliseHeader, readCsvRows } from './csv-rows.ts';
import { COLUMN_FIELDS, CSV_FLAGS, readCsvMapping, type ColumnField, type CsvMapping } from './csv-mapping.ts';
import type { ImportFormat } from './import-format.ts';
import {
  applyAuthorStyle,
  deriveReviewId,
  isImportedFrom,
  setAsideEarlyReply,
  toImportedReview,
  withoutUndefined,
  type FileFailure,
  type MapOptions,
  type MappedExport,
  type Origin,
  type ReviewField,
} from './record.ts';
import { parseExportDate, parseStarRating } from './values.ts';
import path from 'node:path';
import type { RemoteMedia } from './media-download.ts';

/**
 * The headers exports use for each field, compared after `normaliseHeader` (case, spaces, `_`, `-` and
 * punctuation do not matter: "Date Posted", "date_posted" and "Date posted:" are one header).
 */
const USUAL_HEADERS: Record<ColumnField, string[]> = {
  id: ['id', 'review id', 'reviewid'],
  rating: ['rating', 'stars', 'star rating', 'score', 'overall rating', 'overall', 'rating stars', 'star', 'review rating', 'stars given'],
  date: ['date', 'review date', 'created', 'created at', 'date created', 'submitted', 'submitted at', 'time', 'date posted', 'posted', 'posted at', 'posted on', 'review posted', 'published', 'published at', 'date published', 'date of review', 'reviewed at', 'timestamp'],
  text: ['text', 'review', 'review text', 'comment', 'comments', 'body', 'content', 'feedback', 'review content', 'review body', 'review comment', 'message', 'description', 'testimonial'],
  author: ['author', 'name', 'reviewer', 'reviewer name', 'customer', 'customer name', 'user', 'full name', 'author name', 'reviewed by', 'username', 'user name', 'client', 'client name'],
  title: ['title', 'headline', 'subject', 'review title', 'summary'],
  source_url: ['source url', 'review url', 'review link', 'url', 'link', 'permalink'],
  response: ['response', 'reply', 'owner response', 'business response', 'owner reply', 'response text', 'business reply', 'reply text', 'owner comment', 'management response', 'response content', 'owners response', 'owner s response'],
  response_date: ['response date', 'reply date', 'owner response date', 'business response date', 'date replied', 'replied at', 'replied on', 'response posted', 'responded at', 'responded on', 'date of response'],
  photos: ['photos', 'photo', 'photo urls', 'images', 'image', 'image urls', 'media', 'pictures', 'attachments'],
  location: ['location', 'location id', 'location name', 'business location', 'branch', 'store', 'shop', 'store name'],
};

const REQUIRED: readonly ColumnField[] = ['rating', 'date', 'text', 'author'];

const ANONYMOUS = 'Anonymous';

export function mapCsvExport(text: string, file: string, mapping: CsvMapping, options: MapOptions): MappedExport | FileFailure {
  const rows = readCsvRows(text, file, { delimiter: mapping.delimiter, empty: 'a header row and one row per review' });
  if ('ok' in rows) return rows;
  const { header, records } = rows;
  const columns = findColumns(header.record, mapping);
  if (!columns.ok) return { ok: false, file, message: columns.message };

  const at = columns.value;
  const headerOf = (field: ColumnField) => (at[field] === undefined ? undefined : header.record[at[field]!]);
  const fieldNames = Object.fromEntries(COLUMN_FIELDS.filter((f) => f !== 'response_date' && f !== 'location').map((f) => [f, headerOf(f)])) as Partial<Record<ReviewField, string>>;
  const supplied: ReviewField[] = ['id', 'rating', 'date', 'text', 'author', 'source'];
  if (at.title !== undefined) supplied.push('title');
  if (at.source_url !== undefined) supplied.push('source_url');
  if (at.response !== undefined) supplied.push('response');

  const mapped: MappedExport = { reviews: [], skipped: [], listedIds: [] };
  for (const { record, info } of records) {
    const origin: Origin = { file, row: info.records };
    // Exports made on Windows end the lines inside a quoted cell with \r\n: the content keeps \n.
    const cell = (field: ColumnField) => (at[field] === undefined ? '' : (record[at[field]!] ?? '').replace(/\r\n?/g, '\n').trim());
    const invalid = (field: ColumnField, message: string) => void mapped.skipped.push({ origin, reason: 'invalid', field: headerOf(field), message });
    if (record.every((value) => value.trim() === '')) continue;
    if (record.length !== header.record.length) {
      mapped.skipped.push({ origin, reason: 'invalid', message: `has ${record.length} fields where the header has ${header.record.length}` });
      continue;
    }
    if (at.id !== undefined && cell('id') !== '') origin.review = cell('id');
    const date = parseExportDate(cell('date'), { dayFirst: mapping.day_first });
    if (!date.ok) {
      invalid('date', date.message);
      continue;
    }
    const rawAuthor = cell('author');
    const sourceId = at.id !== undefined ? cell('id') : `${date.value} ${rawAuthor}`;
    if (sourceId === '') {
      invalid('id', 'is empty');
      continue;
    }
    const id = deriveReviewId(mapping.source, sourceId);
    mapped.listedIds.push(id);

    const rating = parseStarRating(cell('rating'));
    if (!rating.ok) {
      invalid('rating', rating.message === 'is empty' ? 'is empty: a review needs a star rating' : rating.message);
      continue;
    }
    if (cell('text') === '') {
      mapped.skipped.push({ origin, reason: 'no-text', message: 'a rating without text: the content model requires text' });
      continue;
    }
    let response: { text: string; date: string } | undefined;
    if (cell('response') !== '') {
      // Without a reply date column the reply is dated as the review: the earliest date it can have.
      const replied = at.response_date === undefined || cell('response_date') === '' ? date : parseExportDate(cell('response_date'), { dayFirst: mapping.day_first });
      if (!replied.ok) {
        invalid('response_date', replied.message);
        continue;
      }
      response = { text: cell('response'), date: replied.value };
    }
    const candidate = withoutUndefined({
      id,
      rating: rating.value,
      date: date.value,
      text: cell('text'),
      author: rawAuthor === '' ? ANONYMOUS : applyAuthorStyle(rawAuthor, options.authorStyle),
      verified: options.verified,
      title: cell('title') || undefined,
      source: mapping.source,
      source_url: cell('source_url') || undefined,
      response,
    });
    const setAside = setAsideEarlyReply(candidate);
    const result = toImportedReview(candidate, { origin, supplied, fieldNames });
    if (!result.ok) {
      mapped.skipped.push(result.skip);
      continue;
    }
    if (setAside !== undefined) result.value.setAside = [setAside];
    if (cell('location') !== '') result.value.sourceLocation = cell('location');
    const photos = cell('photos');
    if (photos !== '') result.value.remoteMedia = readPhotosCell(photos, file);
    mapped.reviews.push(result.value);
  }
  return mapped;
}

/** A photos cell: HTTPS URLs to download, or paths relative to the CSV (never fetched over the network). */
function readPhotosCell(cell: string, file: string): RemoteMedia[] {
  return cell
    .split(/[\s|]+/)
    .filter((entry) => entry !== '')
    .map((entry) =>
      /^https?:\/\//i.test(entry) ? { kind: 'photo', url: entry } : { kind: 'photo', url: entry, localCopy: path.resolve(path.dirname(file), entry), localOnly: true },
    );
}

function findColumns(header: string[], mapping: CsvMapping): { ok: true; value: Partial<Record<ColumnField, number>> } | { ok: false; message: string } {
  const normalised = header.map(normaliseHeader);
  const problems: string[] = [];
  const found = findNamedColumns(normalised, COLUMN_FIELDS, mapping.columns, problems);
  const taken = () => new Set(Object.values(found));
  for (const field of COLUMN_FIELDS) {
    if (mapping.columns[field] !== undefined) continue;
    const index = normalised.findIndex((h, i) => !taken().has(i) && USUAL_HEADERS[field].includes(h));
    if (index >= 0) found[field] = index;
    else if (REQUIRED.includes(field)) problems.push(`no column for ${field}: pass --column ${field}=<header>`);
  }
  if (problems.length === 0) return { ok: true, value: found };
  return { ok: false, message: `${problems.join('; ')} (the header row has: ${header.map((h) => JSON.stringify(h)).join(', ')})` };
}

export const csvFormat: ImportFormat = {
  name: 'csv',
  summary: 'any CSV export (Yelp, Angi, Facebook, a CRM, a form): --source and the column mapping',
  flags: CSV_FLAGS,
  async configure(flags) {
    const read = await readCsvMapping(flags);
    if (!read.ok) return read;
    const { mapping } = read;
    return {
      ok: true,
      reader: {
        map: (text, file, options) => mapCsvExport(text, file, mapping, options),
        pruneScope: isImportedFrom(mapping.source),
      },
    };
  },
};
