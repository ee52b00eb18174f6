/**
 * The replayed history of a content folder, kept between builds (scripts/lib/content-history.ts), so a
 * build reads and fingerprints only the commits made since the last one: the versions so far, the
 * fingerprints of every review file and of the published reviews after the last commit replayed. The
 * cache only saves time: without it, or when it is unreadable, of another format, or its last commit is no
 * longer on the branch (a rebase, a reset), the whole history is replayed and gives the same versions.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type { ContentVersion } from '../../core/content/review-history.ts';

/** Bump when the fingerprints or the replay change meaning: an older cache is then ignored. */
const CACHE_FORMAT = 1;

export type HistoryState = {
  /** The last commit replayed ('' before the first). */
  head: string;
  versions: ContentVersion[];
  byFile: Map<string, Map<string, string>>;
  published: Map<string, string>;
};

const PairsSchema = z.array(z.tuple([z.string(), z.string()]));
const StoredStateSchema = z.object({
  format: z.literal(CACHE_FORMAT),
  head: z.string().min(1),
  versions: z.array(z.tuple([z.string(), z.string(), z.array(z.tuple([z.string(), z.string().nullable()]))])),
  by_file: z.record(z.string(), PairsSchema),
  published: PairsSchema,
});

/** One cache file per repository and reviews folder. */
export function historyCacheFile(cacheDir: string, top: string, reviewsPath: string): string {
  return path.join(cacheDir, `history-${createHash('sha256').update(`${top}\0${reviewsPath}`).digest('hex').slice(0, 16)}.json`);
}

export async function readHistoryCache(file: string): Promise<HistoryState | undefined> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(file, 'utf8'));
  } catch {
    return undefined; // none yet, or unreadable: replay everything
  }
  const parsed = StoredStateSchema.safeParse(json);
  if (!parsed.success) return undefined;
  const { head, versions, by_file, published } = parsed.data;
  return {
    head,
    versions: versions.map(([time, key, delta]) => ({ time, key, delta: new Map(delta) })),
    byFile: new Map(Object.entries(by_file).map(([name, pairs]) => [name, new Map(pairs)])),
    published: new Map(published),
  };
}

/** Written beside and renamed into place, so a build running at the same time never reads half a file. */
export async function writeHistoryCache(file: string, state: HistoryState): Promise<void> {
  const stored: z.input<typeof StoredStateSchema> = {
    format: CACHE_FORMAT,
    head: state.head,
    versions: state.versions.map((v) => [v.time, v.key, [...v.delta]]),
    by_file: Object.fromEntries([...state.byFile].map(([name, fingerprints]) => [name, [...fingerprints]])),
    published: [...state.published],
  };
  await mkdir(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.${Date.now()}.tmp`;
  await writeFile(temporary, JSON.stringify(stored));
  await rename(temporary, file);
}
