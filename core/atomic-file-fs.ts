/**
 * Writing a file so that a crash leaves the old file or the new one, never half of either: the bytes go
 * to a temporary name beside the target (same folder, same file system), then one rename(2) replaces
 * the target, or one link(2) creates it only where it is missing.
 */
import { randomBytes } from 'node:crypto';
import { chmod, link, rename, rm, writeFile } from 'node:fs/promises';

export type AtomicWriteOptions = {
  /** The file's permissions, exactly (keys and tokens: 0o600; hooks: 0o755); else the umask's default. */
  mode?: number;
};

async function withTempFile(target: string, bytes: Buffer | string, options: AtomicWriteOptions, put: (temp: string) => Promise<void>): Promise<void> {
  const temp = `${target}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    // Created with the mode, so a secret is never readable by others even for a moment; chmod then
    // sets it exactly, whatever the umask took away.
    await writeFile(temp, bytes, { mode: options.mode, flag: 'wx' });
    if (options.mode !== undefined) await chmod(temp, options.mode);
    await put(temp);
  } finally {
    await rm(temp, { force: true });
  }
}

/** Replaces `target` (or creates it) with `bytes`, atomically. */
export async function replaceFile(target: string, bytes: Buffer | string, options: AtomicWriteOptions = {}): Promise<void> {
  await withTempFile(target, bytes, options, (temp) => rename(temp, target));
}

/** Creates `target` with `bytes` only where no file has that name, atomically; false when one has. */
export async function createFileIfMissing(target: string, bytes: Buffer | string, options: AtomicWriteOptions = {}): Promise<boolean> {
  let created = true;
  await withTempFile(target, bytes, options, (temp) =>
    link(temp, target).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error;
      created = false;
    }),
  );
  return created;
}
