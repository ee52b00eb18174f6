/** Writing a file all at once or not at all (core/atomic-file-fs.ts), as the keys, tokens, hooks, photos and state files are written. */
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFileIfMissing, replaceFile } from '../../core/atomic-file-fs.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'atomic-file-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('replaceFile', () => {
  it('replaces the file and leaves nothing else beside it', async () => {
    const file = path.join(dir, 'state.json');
    await writeFile(file, 'old');
    await replaceFile(file, 'new');
    expect(await readFile(file, 'utf8')).toBe('new');
    expect(await readdir(dir)).toEqual(['state.json']);
    await rm(file);
  });

  it.each([
    ['0600', 0o600],
    ['0755', 0o755],
  ])('gives the file exactly the mode %s, whatever the umask takes away', async (name, mode) => {
    const file = path.join(dir, `key-${name}`);
    await writeFile(file, 'old', { mode: 0o644 });
    const umask = process.umask(0o077);
    try {
      await replaceFile(file, 'secret\n', { mode });
    } finally {
      process.umask(umask);
    }
    expect((await stat(file)).mode & 0o777).toBe(mode);
    await rm(file);
  });

  it('keeps the old file and removes its temporary one when the rename fails', async () => {
    const target = path.join(dir, 'a-folder');
    await mkdir(path.join(target, 'inside'), { recursive: true });
    await expect(replaceFile(target, 'bytes')).rejects.toThrow();
    expect(await readdir(target)).toEqual(['inside']);
    expect(await readdir(dir)).toEqual(['a-folder']);
    await rm(target, { recursive: true });
  });
});

describe('createFileIfMissing', () => {
  it('creates a missing file, and leaves an existing one as it was', async () => {
    const file = path.join(dir, 'business.json');
    expect(await createFileIfMissing(file, 'first')).toBe(true);
    expect(await createFileIfMissing(file, 'second')).toBe(false);
    expect(await readFile(file, 'utf8')).toBe('first');
    expect(await readdir(dir)).toEqual(['business.json']);
    await rm(file);
  });
});
