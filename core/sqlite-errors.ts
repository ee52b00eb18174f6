/** What node:sqlite's errors say, for the code that opens SQLite files (core/held-lock-fs.ts, the hub's store). */

/** Another connection holds the lock this one asked for. */
export const SQLITE_BUSY = 5;

/** SQLite's primary result code of an error thrown by node:sqlite (`errcode` holds the extended one). */
export function sqliteCodeOf(error: unknown): number | undefined {
  const code = typeof error === 'object' && error !== null && 'errcode' in error ? Number((error as { errcode: unknown }).errcode) : undefined;
  return code === undefined || Number.isNaN(code) ? undefined : code & 0xff;
}
