/**
 * The on-demand pages of a build (the search page): the code Astro's Node adapter built in middleware
 * mode, in the build's `_server/` folder. It is self-contained (astro.config.mjs bundles every
 * package into it), so a build folder runs wherever it lies.
 *
 * Node caches modules by URL and a swapped-in build reuses the folder's path, so each build's entry
 * is imported with its build id in the query: a new build gets its own instance. Its chunks are named
 * by content hash, so a chunk shared by two builds is the same code.
 */
import { access } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { SERVER_DIR, SERVER_ENTRY } from '../../core/publishing/manifest.ts';

/** @astrojs/node's middleware: renders the page the request names, or calls `next` when none matches. */
export type PageHandler = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void, locals: object) => Promise<void>;

/** The build's page handler, or undefined for a build made without on-demand pages. */
export async function loadPageHandler(distDir: string, buildId: string): Promise<PageHandler | undefined> {
  const entry = path.join(distDir, SERVER_DIR, SERVER_ENTRY);
  try {
    await access(entry);
  } catch {
    return undefined;
  }
  const listeners = new Set(process.listeners('unhandledRejection'));
  const module = (await import(`${pathToFileURL(entry).href}?build=${encodeURIComponent(buildId)}`)) as { handler?: PageHandler };
  // On load the adapter adds a process-wide `unhandledRejection` listener that only logs: it would
  // silence every unhandled rejection of the sidecar (Node's default stops the process) and add one
  // more listener with each build loaded. Rendering errors still reach the adapter's own catch (500).
  for (const listener of process.listeners('unhandledRejection')) if (!listeners.has(listener)) process.off('unhandledRejection', listener);
  if (typeof module.handler !== 'function') throw new Error(`${entry} does not export the adapter's handler`);
  return module.handler;
}
