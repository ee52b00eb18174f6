/**
 * Writing a file so that a crash leaves the old file or the new one, never half of either: the bytes go
 * to a temporary name beside the target (same folder, same file system), then one rename(2) replaces
 * the target, or one link(2) creates it only where it is missing.
 *
 * Durable too: the temporary file is fsync'd before the rename and the folder after it, so once the
 * promise resolves the new file survives a power cut (a rename alone may be lost with the folder's
 * unsynced entry). Keys and the witness's state depend on it: an answer given, then forgotten, is a
 * key lost or a cosignature the witness no longer knows it gave.
 */
import { randomBytes } from 'node:crypto';
import { chmod, link, open, rename, rm } from 'node:fs/promises';
import path from 'node:path';

export type AtomicWriteOptions = {
  /** The file's permissions, exactly (keys and tokens: 0o600; hooks: 0o755); else the umask's default. */
  mode?: number;
};

/** fsync(2) of a folder, so the names created or renamed in it are on disk. */
export async function syncFolder(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function withTempFile(target: string, bytes: Buffer | string, options: AtomicWriteOptions, put: (temp: string) => Promise<void>): Promise<void> {
  const temp = `${target}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    // Created with the mode, so a secret is never readable by others even for a moment; chmod then
    // sets it exactly, whatever the umask took away.
    const handle = await open(temp, 'wx', options.mode);
    try {
      await handle.writeFile(bytes);
      await handle.sync();
    } finally {
      await handle.close();
    }
    if (options.mode !== undefined) await chmod(temp, options.mode);
    await put(temp);
    await syncFolder(path.dirname(target));
  } finally {
    await rm(temp, { force: true });
  }
}

/** Replaces `target` (or creates it) with `bytes`, atomically and durably. */
export async function replaceFile(target: string, bytes: Buffer | string, options: AtomicWriteOptions = {}): Promise<void> {
  await withTempFile(target, bytes, options, (temp) => rename(temp, target));
}

/** Creates `target` with `bytes` only where no file has that name, atomically and durably; false when one has. */
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
