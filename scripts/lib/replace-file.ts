/** Writing a file so that a crash leaves the old file or the new one, never half of either. */
import { randomBytes } from 'node:crypto';
import { rename, rm, writeFile } from 'node:fs/promises';

/** Writes `bytes` beside `target` under a temporary name, then renames it over `target`. */
export async function replaceFile(target: string, bytes: Buffer | string): Promise<void> {
  const temp = `${target}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(temp, bytes);
    await rename(temp, target);
  } finally {
    await rm(temp, { force: true });
  }
}
