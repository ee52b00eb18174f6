/**
 * What one sync source is (a platform's API that the service reads by itself, on a schedule): its name
 * and usage line, the import format whose mapper reads what the API returns (so a sync writes the same
 * ids, fields and messages as `npm run import -- <name>`), and how it reads the reviews that are new.
 * The sources are a table beside the import formats (scripts/import/formats.ts): a second API is one
 * file exporting a `SyncSource` and one row there.
 */
import type { Config } from '../../core/config.ts';
import type { CommonOptions, ImportFormat } from '../import/import-format.ts';
import type { MappedExport } from '../import/record.ts';

export type SyncContext = {
  config: Config;
  out: (line: string) => void;
  err: (line: string) => void;
  /** Extra trusted CA certificates (PEM) for in-process tests; a child process uses NODE_EXTRA_CA_CERTS. */
  ca?: string;
  /** The first wait before retrying a 429 or 5xx without Retry-After (doubling each time); tests shorten it. */
  retryBaseMs?: number;
};

/**
 * Where the last run stopped: per target the source reads (a Google location), the newest change the
 * content already has, in the source's own timestamps. `unnamed` is the one stop point of a state written
 * before targets were named: a source reading a single target stops there when that target has none.
 */
export type StopPoints = { byTarget: ReadonlyMap<string, string>; unnamed?: string };

export type SyncRequest = SyncContext & {
  /** Reading each target stops at its stop point; unset (`--full`), every page is read. */
  since?: StopPoints;
  /** Read every page, to withdraw what the source no longer lists. */
  full: boolean;
  options: CommonOptions;
  /** The content folder, whose business.json may say what to read. */
  contentDir: string;
};

export type SyncReading = {
  ok: true;
  /** The reviews as the import format maps them, one entry per page read. */
  mapped: MappedExport[];
  pagesRead: number;
  /** Per target read, the newest change among its reviews, to stop at next time. */
  newest: ReadonlyMap<string, string>;
  /**
   * With `full`: every page of every target was read and the source's own count of its reviews matches
   * what it listed, so a review it no longer lists is really gone. Otherwise why not (printed; nothing is
   * withdrawn).
   */
  listing: { complete: true } | { complete: false; why: string };
  /**
   * Of the reviews the import format speaks for, those the listing speaks for, when fewer: the reviews
   * of the targets read (a sync of one location withdraws nothing of another). Unset: all of them.
   */
  listedScope?: (review: Record<string, unknown>) => boolean;
};

export type SyncFailure = { ok: false; message: string };

export type SyncSource = {
  name: string;
  /** The source's name in the commit message: "Sync from Google: 3 added, 1 updated". */
  title: string;
  summary: string;
  /** The import format of the same platform: its mapper, and its scope for withdrawing reviews. */
  format: ImportFormat;
  read(request: SyncRequest): Promise<SyncReading | SyncFailure>;
  /** `--authorize`: the one-time consent that gives the sync its token. */
  authorize(context: SyncContext): Promise<0 | 1>;
  /** `--locations`: what the token can read, to choose the setting that names it. */
  listTargets(context: SyncContext): Promise<0 | 1>;
};
