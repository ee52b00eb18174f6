/** The review log's entries as a build serves them, opened as a reader opens them (core/log/log-files.ts). */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { openLogFiles, type LogEntry } from '../../core/log/index.ts';

/** The entries of the log in `distDir` (a build folder or its `dist` link), in order; `origin` is the log's name. */
export async function readLogEntries(distDir: string, origin = 'reviews.example.com/log'): Promise<LogEntry[]> {
  const opened = await openLogFiles(async (p) => readFile(path.join(distDir, 'log', p)).catch(() => undefined), origin);
  if (opened.ok !== true) throw new Error(`the log in ${distDir} cannot be opened: ${opened.ok === false ? opened.reason : 'no checkpoint'}`);
  return opened.value.decoded;
}
