/**
 * `npm run sync -- <source> [options]`: the reviews a platform's API has that the content folder does
 * not, merged in exactly as `npm run import` merges a file (scripts/import/apply-import.ts: the same
 * ids, owner fields kept, the same messages, photos downloaded once), all or nothing. The sources are
 * the SYNC_SOURCES table of scripts/import/formats.ts; see docs/import.md "Sync".
 *
 * Where to stop reading next time (for each target, a Google location, the newest change read from it) is kept in the content itself, in
 * `reviews/.sync-<source>`, written in the same all-or-nothing step as the reviews and committed with
 * them, so a CI runner needs no other state.
 *
 * Every run ends with one line an operator's monitoring can catch: `sync google: 3 added, …` on
 * stdout, or `sync google failed: …` on stderr with exit 1 (2 for a bad command line; `--help` prints the
 * usage, exit 0). Every line is printed through toPrintable: what Google sends never acts on the terminal.
 */
import path from 'node:path';
import { readContentFile } from '../../core/read-content-file.ts';
import type { Config } from '../../core/config.ts';
import { readEntryConfig } from '../lib/entry-config.ts';
import { applyImport, type ImportIo, type ImportSettings } from '../import/apply-import.ts';
import { COMMON_FLAGS, flagLine, listNames, parseCommonFlags, parseFlags, type CommonRunOptions } from '../import/cli-options.ts';
import { SYNC_SOURCES } from '../import/formats.ts';
import type { Flag } from '../import/import-format.ts';
import { createMediaDownloader } from '../import/media-download.ts';
import { commitSync } from './commit.ts';
import { recordWithdrawals } from './withdraw.ts';
import type { StopPoints, SyncContext, SyncReading, SyncSource } from './sync-source.ts';
import { compareText, plural } from '../../core/text/text-rules.ts';
import { toPrintable } from '../../core/text/printable.ts';

const SHARED_FLAGS = COMMON_FLAGS.filter((flag) => flag.name !== 'prune');
const SYNC_FLAGS: readonly Flag[] = [
  { name: 'full', type: 'boolean', help: 'read every page, and withdraw the reviews the source no longer lists (only when the listing is complete)' },
  { name: 'commit', type: 'boolean', help: 'commit what came in to the content repository (none when nothing changed)' },
  { name: 'authorize', type: 'boolean', help: 'the one-time consent: stores the refresh token in DATA_DIR' },
  { name: 'locations', type: 'boolean', help: 'list the locations the token can read (the GOOGLE_LOCATION values to set)' },
];

export const USAGE = [
  `usage: npm run sync -- <${SYNC_SOURCES.map((s) => s.name).join('|')}> [options]`,
  '',
  ...SYNC_SOURCES.map((s) => `  ${s.name.padEnd(8)} ${s.summary}`),
  '',
  ...SYNC_FLAGS.map(flagLine),
  ...SHARED_FLAGS.map(flagLine),
  flagLine({ name: 'help', type: 'boolean', help: 'print this usage' }),
  '',
  'The reviews are written into CONTENT_DIR (default content/).',
].join('\n');

/** `--help` or `-h` anywhere before a `--`: the usage, whatever else the line holds. */
export function wantsHelp(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end < 0 ? argv : argv.slice(0, end)).some((arg) => arg === '--help' || arg === '-h');
}

export type SyncOptions = CommonRunOptions & { source: SyncSource; full: boolean; commit: boolean; authorize: boolean; locations: boolean };

export function parseSyncArgs(argv: readonly string[]): { ok: true; options: SyncOptions } | { ok: false; message: string } {
  const parsed = parseFlags(argv, [...SYNC_FLAGS, ...SHARED_FLAGS]);
  if (!parsed.ok) return parsed;
  const { values, positionals } = parsed;
  const names = SYNC_SOURCES.map((s) => s.name);
  const [name, ...extra] = positionals;
  const source = SYNC_SOURCES.find((s) => s.name === name);
  const problems: string[] = [];
  if (!source) problems.push(name === undefined ? `name a source: ${listNames(names)}` : `unknown source "${name}": ${listNames(names)}`);
  if (extra.length > 0) problems.push(`a sync reads no files (${extra.join(' ')}): npm run import reads files`);
  const common = parseCommonFlags(values);
  if (!common.ok) problems.push(...common.problems);
  if (problems.length > 0 || !source || !common.ok) return { ok: false, message: problems.join('\n') };
  const flag = (key: string) => values[key] === true;
  return { ok: true, options: { ...common.options, source, full: flag('full'), commit: flag('commit'), authorize: flag('authorize'), locations: flag('locations') } };
}

export type SyncIo = ImportIo & Omit<SyncContext, 'config' | 'out' | 'err'> & { config: Config };

/** The state file of a source, inside reviews/ so that it is swapped in with the reviews it describes. */
const stateFileOf = (source: SyncSource) => `.sync-${source.name}`;

export async function runSync(options: SyncOptions, io: SyncIo): Promise<0 | 1> {
  const { source } = options;
  const context: SyncContext = { config: io.config, out: io.out, err: io.err, ca: io.ca, retryBaseMs: io.retryBaseMs };
  if (options.authorize) return source.authorize(context);
  if (options.locations) return source.listTargets(context);
  const failed = (message: string, after = 'the content is as it was'): 1 => {
    io.err(`sync ${source.name} failed: ${message}; ${after}`);
    return 1;
  };

  const state = await readState(io.contentDir, stateFileOf(source));
  if (!state.ok) return failed(state.message);
  const reading = await source.read({ ...context, since: options.full ? undefined : state.stops, full: options.full, options, contentDir: io.contentDir });
  if (!reading.ok) return failed(reading.message);
  if (options.full && !reading.listing.complete) io.err(`note: nothing is withdrawn: ${reading.listing.why}`);
  const stops = nextStopPoints(state.stops, reading.newest);
  const alongside = new Map(stops === undefined ? [] : [[stateFileOf(source), `${JSON.stringify(stops, null, 2)}\n`]]);
  const applied = await applyImport(
    { mapped: reading.mapped },
    { dryRun: options.dryRun, strict: options.strict, allowPrivateDownloads: options.allowPrivateDownloads, pruneScope: await withdrawalScope(source, reading), alongside, beforeRemoving: (ids) => recordWithdrawals(io.contentDir, ids) },
    { ...io, downloader: io.downloader ?? (() => createMediaDownloader({ allowPrivate: options.allowPrivateDownloads, ca: io.ca })) },
  );
  if (applied.code !== 0) return failed('the merge was refused (see above)');
  const { added, updated, removed, skipped } = applied.summary;
  if (options.commit && !options.dryRun && added + updated + removed > 0) {
    const committed = await commitSync(io.contentDir, `Sync from ${source.title}: ${describeCounts(applied.summary)}`);
    if (!committed.ok) return failed(`the commit: ${committed.message}`, 'the reviews are written, not committed');
    io.out(`committed ${committed.commit}`);
  }
  io.out(`sync ${source.name}: ${added} added, ${updated} updated, ${removed} withdrawn, ${skipped.length} skipped; ${plural(reading.pagesRead, 'page', { format: String })} read${options.dryRun ? ' (dry run, nothing written)' : ''}`);
  return 0;
}

/**
 * The reviews a sync withdraws: those its import format speaks for (its `--prune` scope) that the
 * source no longer lists, and only when the listing was complete (a page that missed a review
 * withdraws nothing). Google took them down or the customer deleted them: removed at the source, the
 * reason recordWithdrawals (withdraw.ts) writes before they go.
 */
async function withdrawalScope(source: SyncSource, reading: Pick<SyncReading, 'listing' | 'listedScope'>): Promise<ImportSettings['pruneScope']> {
  if (!reading.listing.complete) return undefined;
  const configured = await source.format.configure({});
  if (!configured.ok) return undefined;
  const { pruneScope } = configured.reader;
  const { listedScope } = reading;
  return listedScope === undefined ? pruneScope : (review) => pruneScope(review) && listedScope(review);
}

/**
 * The state file's next content, `{ "newest": { <target>: <time> } }`: each target's stop point moved to
 * the newest change read from it, the others kept. A state of one unnamed stop point (written before
 * targets were named) is dropped once a run names its targets. Undefined: nothing read, nothing to write.
 */
export function nextStopPoints(before: StopPoints, read: ReadonlyMap<string, string>): { newest: Record<string, string> } | undefined {
  const merged = new Map(before.byTarget);
  for (const [target, at] of read) {
    const known = merged.get(target);
    if (known === undefined || Date.parse(at) > Date.parse(known)) merged.set(target, at);
  }
  if (merged.size === 0) return undefined;
  return { newest: Object.fromEntries([...merged].sort(([a], [b]) => compareText(a, b))) };
}

/** "3 added, 1 updated": the counts that are not zero. */
function describeCounts(s: { added: number; updated: number; removed: number }): string {
  return [s.added > 0 && `${s.added} added`, s.updated > 0 && `${s.updated} updated`, s.removed > 0 && `${s.removed} withdrawn`].filter(Boolean).join(', ');
}

/** A state file holds one timestamp; anything near this size is not one. */
const MAX_STATE_BYTES = 64 * 1024;

/**
 * Where the last run stopped: `{ "newest": { <target>: <time> } }`, or `{ "newest": <time> }` as written
 * before targets were named. No state, or one that is not ours (not JSON, no `newest`), reads every
 * page again; an entry the content folder must not hold (a FIFO, a link out of it) is refused, by the
 * same reader as every other content file (core/read-content-file.ts).
 */
async function readState(contentDir: string, file: string): Promise<{ ok: true; stops: StopPoints } | { ok: false; message: string }> {
  const relative = `reviews/${file}`;
  const none = { ok: true as const, stops: { byTarget: new Map<string, string>() } };
  const read = await readContentFile(contentDir, relative, MAX_STATE_BYTES);
  if (!read.ok) return read.missing ? none : { ok: false, message: `${relative} ${read.reason}` };
  try {
    const { newest } = JSON.parse(read.bytes.toString('utf8')) as { newest?: unknown };
    if (typeof newest === 'string') return { ok: true, stops: { byTarget: new Map(), unnamed: newest } };
    if (typeof newest !== 'object' || newest === null) return none;
    const byTarget = new Map(Object.entries(newest).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
    return { ok: true, stops: { byTarget } };
  } catch {
    return none;
  }
}

/** One line of output as the terminal gets it: whatever Google's text holds, nothing acts on the terminal. */
const printable = (line: string) => line.split('\n').map(toPrintable).join('\n');

if (import.meta.main) {
  if (wantsHelp(process.argv.slice(2))) {
    console.log(USAGE);
    process.exit(0);
  }
  const parsed = parseSyncArgs(process.argv.slice(2));
  if (!parsed.ok) {
    console.error(`${parsed.message}\n\n${USAGE}`);
    process.exit(2);
  }
  const { config } = readEntryConfig();
  const contentDir = path.resolve(config.contentDir);
  const io: SyncIo = { config, contentDir, out: (line) => console.log(printable(line)), err: (line) => console.error(printable(line)) };
  try {
    process.exit(await runSync(parsed.options, io));
  } catch (error) {
    console.error(printable(`sync ${parsed.options.source.name} failed: ${(error as Error).message}; ${contentDir}/reviews is as it was before`));
    process.exit(1);
  }
}
