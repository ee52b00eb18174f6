/**
 * What one import format is: its name and usage line, the flags only it takes, how those flags become
 * a reader, and how the reader maps one file. The command line, the usage text, the "only for" check
 * and the dispatch are all derived from the table in formats.ts, so adding a format is one new file
 * (exporting an `ImportFormat`) and one row there.
 */
import type { BusinessContent } from '../../core/schemas/content.ts';
import { parseJsonExport, type FileFailure, type MapOptions, type MappedExport } from './record.ts';

/** The options every format gets (the shared flags). */
export type CommonOptions = MapOptions & {
  /** The business's time zone, for exports that give instants rather than dates. */
  timeZone: string;
};

/** A command-line flag: `--name <arg>` (a string) or `--name` (a boolean), with its line of help. */
export type Flag = { name: string; type: 'string' | 'boolean'; multiple?: boolean; arg?: string; help: string };

export type FormatReader = {
  /** One file's text as reviews, or why the file is not this format at all. */
  map(text: string, file: string, options: CommonOptions): (MappedExport & { business?: BusinessContent }) | FileFailure;
  /** Which existing reviews `--prune` may remove: the ones this format made (see docs/import.md). */
  pruneScope(review: Record<string, unknown>): boolean;
};

export type ImportFormat = {
  name: string;
  /** The format's line in the usage text. */
  summary: string;
  /** Flags only this format takes; any other format refuses them. */
  flags: readonly Flag[];
  /** This format's own flags (as parsed, absent ones left out) into a reader, or every problem at once. */
  configure(flags: Record<string, unknown>): Promise<{ ok: true; reader: FormatReader } | { ok: false; message: string }>;
};

/** A format whose files are JSON (a UTF-8 byte order mark allowed) and that takes no flags of its own. */
export function defineJsonFormat(row: {
  name: string;
  summary: string;
  map(data: unknown, file: string, options: CommonOptions): ReturnType<FormatReader['map']>;
  pruneScope: FormatReader['pruneScope'];
}): ImportFormat {
  const reader: FormatReader = {
    map(text, file, options) {
      const json = parseJsonExport(text, file);
      return json.ok ? row.map(json.data, file, options) : json;
    },
    pruneScope: row.pruneScope,
  };
  return { name: row.name, summary: row.summary, flags: [], configure: async () => ({ ok: true, reader }) };
}
