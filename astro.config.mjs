// @ts-check
// The static build. scripts/build.ts is the usual entry point (it validates content first and
// writes the manifest afterwards); it passes the content folder and public URL through the
// environment, which this config reads once.
import { defineConfig } from 'astro/config';
import path from 'node:path';

const contentDir = path.resolve(process.env.CONTENT_DIR || 'content');
const port = process.env.PORT || '4321';
const site = (process.env.PUBLIC_URL || `http://localhost:${port}`).replace(/\/+$/, '');

export default defineConfig({
  srcDir: './site',
  publicDir: './site/public',
  outDir: process.env.ASTRO_OUT_DIR || './dist',
  cacheDir: process.env.ASTRO_CACHE_DIR || './node_modules/.astro',
  output: 'static',
  site,
  trailingSlash: 'ignore',
  // Pages carry their small stylesheet inline: one request per page, nothing render-blocking.
  build: { format: 'directory', inlineStylesheets: 'always' },
  devToolbar: { enabled: false },
  vite: {
    define: {
      'import.meta.env.REVIEWS_CONTENT_DIR': JSON.stringify(contentDir),
    },
  },
});
