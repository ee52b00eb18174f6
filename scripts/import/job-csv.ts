/**
 * A job export (CSV) as jobs of the content model (`JobContentSchema`): pure, the business's services,
 * technicians and service areas passed in. Only a job's number, completion date, service, technician and
 * city are read; every other column (the customer, the street, the telephone, the totals) is never read,
 * so it cannot reach the content folder.
 *
 * - service: the column's text as a service's id, name or alias (the review mention matcher), or, in a
 *   free title ("AC repair, upstairs unit"), the one service it names; else the row is refused, naming
 *   the text. The mapping's default service (`--service`) is for a job whose column is empty.
 * - technician: the first person in the column that a technician's name or alias names; else none.
 * - area: the area column, or else the city of the address column, when it is one of business.json's
 *   service_areas; else none.
 */
import { JobContentSchema, type BusinessContent, type JobContent } from '../../core/schemas/content.ts';
import { serviceEntities, technicianEntities } from '../../core/content/parse-content.ts';
import { createMentionMatcher, type MentionMatcher } from '../../core/mentions.ts';
import { findNamedColumns, normaliseHeader, readCsvRows } from './csv-rows.ts';
import { JOB_COLUMNS, type JobColumn, type JobLayout } from './job-layouts.ts';
import type { JobMapping } from './job-mapping.ts';
import { parseItem, type FileFailure, type Origin, type Skip } from './record.ts';
import { parseExportDate, type Read } from './values.ts';

/** The members of a job the import writes, in the schema's order. */
export const JOB_KEYS = Object.keys(JobContentSchema.shape) as (keyof JobContent)[];

/** One job of an export, valid under the content model. */
export type ImportedJob = {
  origin: Origin;
  job: JobContent;
  /** The members this export speaks for: a re-import leaves the others as the folder has them. */
  supplied: readonly (keyof JobContent)[];
};

export type MappedJobs = {
  /** How the file was read: its layout and, per column read, the header. */
  layout: JobLayout;
  read: Partial<Record<JobColumn, string>>;
  jobs: ImportedJob[];
  skipped: Skip[];
};

/** What business.json says, for mapping: matchers over services and technicians, and the areas by lower case. */
export type JobVocabulary = { services: MentionMatcher; technicians: MentionMatcher; areas: ReadonlyMap<string, string> };

export function createJobVocabulary(business: BusinessContent): JobVocabulary {
  return {
    services: createMentionMatcher(serviceEntities(business)),
    technicians: createMentionMatcher(technicianEntities(business)),
    areas: new Map(business.service_areas.map((a) => [a.toLowerCase(), a])),
  };
}

const REQUIRED: readonly JobColumn[] = ['id', 'completed', 'service'];

export function mapJobCsv(
  text: string,
  file: string,
  context: { layouts: readonly JobLayout[]; fallback: JobLayout; mapping: JobMapping; vocabulary: JobVocabulary },
): MappedJobs | FileFailure {
  const { mapping, vocabulary } = context;
  const rows = readCsvRows(text, file, { delimiter: mapping.delimiter, empty: 'a header row and one row per job' });
  if ('ok' in rows) return rows;
  const { header, records } = rows;
  const layout = recogniseLayout(header.record, context.layouts) ?? context.fallback;
  const columns = findColumns(header.record, layout, mapping);
  if (!columns.ok) return { ok: false, file, message: `${columns.message} (read as ${layout.label}; the header row has: ${header.record.map((h) => JSON.stringify(h)).join(', ')})` };
  const at = columns.value;
  const headerOf = (column: JobColumn) => (at[column] === undefined ? undefined : header.record[at[column]!]);
  const read = Object.fromEntries(JOB_COLUMNS.filter((c) => at[c] !== undefined).map((c) => [c, headerOf(c)]));
  const supplied: (keyof JobContent)[] = ['id', 'completed', 'service'];
  if (at.technician !== undefined) supplied.push('technician');
  if (at.area !== undefined || at.address !== undefined) supplied.push('area');

  const mapped: MappedJobs = { layout, read, jobs: [], skipped: [] };
  for (const { record, info } of records) {
    if (record.every((value) => value.trim() === '')) continue;
    const origin: Origin = { file, row: info.records };
    const cell = (column: JobColumn) => (at[column] === undefined ? '' : (record[at[column]!] ?? '').replace(/\r\n?/g, '\n').trim());
    const refuse = (column: JobColumn | undefined, message: string, reason: Skip['reason'] = 'invalid') =>
      void mapped.skipped.push({ origin, reason, field: column && headerOf(column), message });
    if (record.length !== header.record.length) {
      refuse(undefined, `has ${record.length} fields where the header has ${header.record.length}`);
      continue;
    }
    const id = cell('id');
    if (id === '') {
      refuse('id', 'is empty: a job needs its number');
      continue;
    }
    origin.job = id;
    if (cell('completed') === '') {
      refuse('completed', 'is empty: only completed jobs are imported', 'not-completed');
      continue;
    }
    const completed = parseExportDate(cell('completed'), { dayFirst: mapping.day_first });
    if (!completed.ok) {
      refuse('completed', completed.message);
      continue;
    }
    const service = readService(cell('service').replace(/\s+/g, ' '), vocabulary.services, mapping.service);
    if (!service.ok) {
      refuse('service', service.message);
      continue;
    }
    const candidate = {
      id,
      completed: completed.value,
      service: service.value,
      technician: readTechnician(cell('technician'), vocabulary.technicians),
      area: readArea(cell('area'), vocabulary.areas) ?? readArea(cell('address'), vocabulary.areas),
    };
    const parsed = parseItem(JobContentSchema, withoutEmpty(candidate), origin, (field) => headerOf(field as JobColumn) ?? field);
    if (!parsed.ok) mapped.skipped.push(parsed.skip);
    else mapped.jobs.push({ origin, job: parsed.value, supplied });
  }
  return mapped;
}

/** The first layout whose completion-date header the file has: each tool names that column in its own way. */
function recogniseLayout(header: readonly string[], layouts: readonly JobLayout[]): JobLayout | undefined {
  const normalised = new Set(header.map(normaliseHeader));
  return layouts.find((layout) => layout.headers.completed.some((h) => normalised.has(normaliseHeader(h))));
}

function findColumns(header: readonly string[], layout: JobLayout, mapping: JobMapping): { ok: true; value: Partial<Record<JobColumn, number>> } | { ok: false; message: string } {
  const normalised = header.map(normaliseHeader);
  const problems: string[] = [];
  const found = findNamedColumns(normalised, JOB_COLUMNS, mapping.columns, problems);
  const taken = new Set(Object.values(found));
  for (const column of JOB_COLUMNS) {
    if (mapping.columns[column] !== undefined) continue;
    // An address is read only for its city, so not at all when a city (area) column says it.
    if (column === 'address' && found.area !== undefined) continue;
    // The layout's headers in its order of preference: "Job type" before "Business unit".
    const index = layout.headers[column].map((h) => normalised.findIndex((n, i) => !taken.has(i) && n === normaliseHeader(h))).find((i) => i >= 0);
    if (index !== undefined) {
      found[column] = index;
      taken.add(index);
    } else if (REQUIRED.includes(column) && !(column === 'service' && mapping.service !== undefined)) {
      problems.push(`no column for ${column}: pass --column ${column}=<header>`);
    }
  }
  return problems.length === 0 ? { ok: true, value: found } : { ok: false, message: problems.join('; ') };
}

/**
 * The default service stands only for a job without one: text that names no service is refused rather
 * than guessed, since a wrong service would be published in the job's log entry.
 */
function readService(text: string, services: MentionMatcher, fallback: string | undefined): Read<string> {
  if (text === '') return fallback === undefined ? { ok: false, message: 'is empty: pass --service <id> for jobs without a service' } : { ok: true, value: fallback };
  const exact = services.resolve(text);
  if (exact !== undefined) return { ok: true, value: exact };
  const named = services.findIn(text);
  if (named.length === 1) return { ok: true, value: named[0]! };
  if (named.length > 1) return { ok: false, message: `"${text}" names more than one service (${named.join(', ')}): a job has one service` };
  return { ok: false, message: `"${text}" is not a service of business.json (an id, a name or an alias): add it to a service's aliases` };
}

/** "Mike Reyes, Dana Whitfield" → "Michael Reyes": the first technician the column names, canonical. */
function readTechnician(text: string, technicians: MentionMatcher): string | undefined {
  if (text === '') return undefined;
  for (const part of text.split(/\s*(?:[,;|/&+\n]|\band\b)\s*/i)) {
    // "Mike Reyes" is no term of business.json, but its "Mike" is.
    const named = technicians.resolve(part) ?? technicians.findIn(part);
    if (typeof named === 'string') return named;
    if (named.length === 1) return named[0];
  }
  return undefined;
}

/**
 * The service area an area or address cell names: the whole cell, or one of its comma- or line-separated
 * parts without a trailing state and ZIP code ("Chatham, IL 62629", "12 Oak Ln, Chatham IL 62629").
 * The street never matches by a word inside it ("12 Chatham Rd" is not Chatham): a part must be the area.
 */
function readArea(text: string, areas: ReadonlyMap<string, string>): string | undefined {
  if (text === '') return undefined;
  const parts = [text, ...text.split(/\s*[,\n]\s*/).reverse()].map((part) => part.replace(/\s+\d{5}(?:-\d{4})?$/, '').replace(/\s+[A-Z]{2}$/, '').trim());
  for (const part of parts) {
    const area = areas.get(part.toLowerCase());
    if (area !== undefined) return area;
  }
  return undefined;
}

function withoutEmpty(job: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(job).filter(([, v]) => v !== undefined && v !== '')) as Record<string, string>;
}
