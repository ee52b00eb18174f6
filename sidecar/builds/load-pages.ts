/**
 * The on-demand pages of a build (the search page): the build's `_server/entry.mjs`, made by this
 * project's Astro adapter (site/adapter/page-entry.ts). It is self-contained (astro.config.mjs bundles
 * every package into it), so a build folder runs wherever it lies.
 *
 * `buildDir` is the build's own real folder (`.builds/build-<stamp>`, never the `dist` link): Node caches
 * modules by URL and resolves links once per path for the life of the process, so code imported
 * through the link would stay the first build's. Each build folder has its own name, so each build
 * gets its own module instance, and the code of a build replaced by a swap is never called again.
 */
import { access } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { LiveData } from '../../core/dataset/live-data.ts';
import { SERVER_DIR, SERVER_ENTRY } from '../../core/publishing/manifest.ts';

/** Renders the on-demand page a request names with the given locals; undefined when none matches. */
export type PageRenderer = (request: Request, locals: { live: LiveData }) => Promise<Response | undefined>;

/** The build's page renderer, or undefined for a build made without on-demand pages. */
export async function loadPageRenderer(buildDir: string): Promise<PageRenderer | undefined> {
  const entry = path.join(buildDir, SERVER_DIR, SERVER_ENTRY);
  try {
    await access(entry);
  } catch {
    return undefined;
  }
  const module = (await import(pathToFileURL(entry).href)) as { renderPage?: unknown };
  if (typeof module.renderPage !== 'function') throw new Error(`${entry} does not export renderPage: a build made by an older version; build again`);
  return module.renderPage as PageRenderer;
}
