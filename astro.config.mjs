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
  // Every page is prerendered. The search page is a shell the service fills for each query
  // (core/pages/search-page.ts), so the service imports nothing from a build.
  output: 'static',
  // Sessions would need a store; no page uses them.
  session: false,
  site: config.publicUrl,
  trailingSlash: 'ignore',
  // Pages carry their small stylesheet inline: one request per page, nothing render-blocking.
  build: { format: 'directory', inlineStylesheets: 'always' },
  devToolbar: { enabled: false },
  vite: {
    // Vite's own cache in the build's cache folder too, so a build writes nothing else in the project
    // (the production image and the systemd unit give it only that folder).
    ...(process.env.ASTRO_CACHE_DIR ? { cacheDir: path.join(process.env.ASTRO_CACHE_DIR, 'vite') } : {}),
    // Every script is a file of its own, never inlined into a page: the pages' Content-Security-Policy
    // allows scripts from this origin only, without 'unsafe-inline' (core/publishing/headers.ts).
    build: { assetsInlineLimit: 0 },
    define: {
      'import.meta.env.REVIEWS_CONTENT_DIR': JSON.stringify(path.resolve(config.contentDir)),
      'import.meta.env.REVIEWS_PUBLIC_URL': JSON.stringify(config.publicUrl),
      // Build plumbing, like ASTRO_OUT_DIR: the content scripts/build.ts loaded and analysed once.
      'import.meta.env.REVIEWS_PUBLICATION_FILE': JSON.stringify(process.env.REVIEWS_PUBLICATION_FILE ?? ''),
      // Build plumbing too: the content is the project's demo (examples/demo), and the pages say so.
      'import.meta.env.REVIEWS_DEMO': JSON.stringify(process.env.REVIEWS_DEMO === '1'),
    },
  },
});
