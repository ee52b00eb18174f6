/** Generated content folders for benchmarks, made once and reused (under the git-ignored .bench-content/). */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export async function ensureBenchContent(count: number): Promise<string> {
  const dir = path.join(ROOT, '.bench-content', `${count}`);
  if (!existsSync(path.join(dir, 'business.json'))) {
    await promisify(execFile)(process.execPath, [path.join(ROOT, 'tools/generate-content.ts'), '--count', String(count), '--out', dir], {
      cwd: ROOT,
      maxBuffer: 1 << 24,
    });
  }
  return dir;
}
