// @ts-check
// The static build. scripts/build.ts is the usual entry point (it writes the manifest afterwards);
// it passes the content folder and public URL through the environment, which this config parses
// once with the service's one configuration schema (core/config.ts).
import { defineConfig } from 'astro/config';
import path from 'node:path';
import { formatConfigProblems, parseConfig } from './core/config.ts';

const parsed = parseConfig(process.env);
if (!parsed.ok) throw new Error(formatConfigProblems(parsed.problems));
const { config } = parsed;

export default defineConfig({
  srcDir: './site',
  publicDir: './site/public',
  // Build plumbing set by scripts/lib/run-astro-build.ts, not configuration: a fresh folder per build.
  outDir: process.env.ASTRO_OUT_DIR || './dist',
  cacheDir: process.env.ASTRO_CACHE_DIR || './node_modules/.astro',
  output: 'static',
  site: config.publicUrl,
  trailingSlash: 'ignore',
  // Pages carry their small stylesheet inline: one request per page, nothing render-blocking.
  build: { format: 'directory', inlineStylesheets: 'always' },
  devToolbar: { enabled: false },
  vite: {
    define: {
      'import.meta.env.REVIEWS_CONTENT_DIR': JSON.stringify(path.resolve(config.contentDir)),
      'import.meta.env.REVIEWS_PUBLIC_URL': JSON.stringify(config.publicUrl),
    },
  },
});
