/** The review log's entries as a build serves them, decoded: what a reader of `/log/` gets. */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { decodeEntryBundle, decodeLogEntry, type LogEntry } from '../../core/log/index.ts';

/** The entries of the log in `distDir` (a build folder or its `dist` link), in order: a test's log, of one bundle. */
export async function readLogEntries(distDir: string): Promise<LogEntry[]> {
  const dir = path.join(distDir, 'log/tile/entries');
  const bundles = (await readdir(dir, { withFileTypes: true, recursive: true })).filter((e) => e.isFile());
  if (bundles.length !== 1) throw new Error(`${dir} holds ${bundles.length} entry bundles: readLogEntries reads a log of one (under 256 entries)`);
  return decodeEntryBundle(await readFile(path.join(bundles[0]!.parentPath, bundles[0]!.name))).map((bytes, i) => {
    const decoded = decodeLogEntry(bytes);
    if (!decoded.ok) throw new Error(`entry ${i} of ${dir}: the log's schema refuses it`);
    return decoded.value;
  });
}
