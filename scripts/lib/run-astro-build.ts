/** Spawns astro-build-child.ts with Node 24 and the build's settings; resolves with its peak memory. */
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export type AstroBuildOptions = {
  contentDir: string;
  publicUrl: string;
  /** The publication computed for this build (scripts/build.ts), which the site renders. */
  publicationFile: string;
  outDir: string;
  cacheDir: string;
  /** Astro's working folder, where it writes the pages' code and imports it from (scripts/build.ts). */
  workDir: string;
  /** The demo of examples/demo: its pages carry a banner saying so. */
  demo?: boolean;
  verbose?: boolean;
};

export function runAstroBuild(options: AstroBuildOptions): Promise<{ maxRssBytes: number }> {
  mkdirSync(path.resolve(options.cacheDir), { recursive: true });
  mkdirSync(path.resolve(options.workDir), { recursive: true });
  return new Promise((resolve, reject) => {
    // A young generation of at most 4 MB: Astro's process is a batch, so its peak memory matters more than
    // its pauses; about 100 MB less at 1k and 10k reviews, in the same CPU time (docs/operations.md "Node's flags").
    const child = spawn(process.execPath, ['--max-semi-space-size=4', path.join(ROOT, 'scripts/lib/astro-build-child.ts')], {
      // Astro keeps a static build's prerender chunks in <cwd>/.astro when the output folder lies
      // outside the working directory: one working directory per DIST_DIR keeps parallel builds apart (scripts/build.ts).
      cwd: path.resolve(options.workDir),
      env: {
        ...process.env,
        CONTENT_DIR: path.resolve(options.contentDir),
        PUBLIC_URL: options.publicUrl,
        REVIEWS_PUBLICATION_FILE: path.resolve(options.publicationFile),
        REVIEWS_DEMO: options.demo ? '1' : '',
        ASTRO_OUT_DIR: path.resolve(options.outDir),
        ASTRO_CACHE_DIR: path.resolve(options.cacheDir),
        ASTRO_ROOT: ROOT,
        ASTRO_TELEMETRY_DISABLED: '1',
        ASTRO_LOG_LEVEL: options.verbose ? 'info' : 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      if (options.verbose) process.stdout.write(chunk);
    });
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`astro build failed (exit ${code}):\n${stderr || stdout}`.trim()));
      const last = stdout.trim().split('\n').pop() ?? '{}';
      try {
        resolve(JSON.parse(last) as { maxRssBytes: number });
      } catch {
        resolve({ maxRssBytes: 0 });
      }
    });
  });
}
