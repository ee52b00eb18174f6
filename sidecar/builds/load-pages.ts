/**
 * The on-demand pages of a build (the search page): the build's `_server/entry.mjs`, made by this
 * project's Astro adapter (site/adapter/page-entry.ts). It is self-contained (astro.config.mjs bundles
 * every package into it), so a build folder runs wherever it lies.
 *
 * `buildDir` is the build's own real folder (`.builds/build-<stamp>`, never the `dist` link): Node caches
 * modules by URL and resolves links once per path for the life of the process, so code imported
 * through the link would stay the first build's. Each build folder has its own name, so each build
 * gets its own module instance, and the code of a build replaced by a swap is never called again.
 *
 * Importing that code compiles 2.8 MB of JavaScript on the serving thread, 50–100 ms, at every publish
 * (issue 32 item 2). A publish changes the content, not the code, so a build whose page code is the
 * served build's keeps the renderer already loaded. "The same code" is judged on the bytes
 * (pageCodeIdentity, computed in the loading thread), with only what every build writes differently
 * into them set aside: its own folder and cache stamp in paths, the random key Astro generates per
 * build for server islands (none here), and the bundler's content hashes in chunk names. Anything else
 * that differs, a changed page or a new version of the project, loads the new build's code.
 *
 * The code is imported from a copy of the build's `_server` folder that the service keeps
 * (`createPageCodeCopies`), not from the build folder: a publish keeps the newest three builds on disk
 * (core/publishing/build-folders-fs.ts), so the folder a kept renderer came from was removed by the third
 * publish after it, and the next build's code was then imported anew, 100–150 ms on the serving thread at
 * every third publish (the publish case of `npm run bench -- serve`).
 */
import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import { access, cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { LiveData } from '../../core/dataset/live-data.ts';
import { isOwnerAlive } from '../../core/publishing/build-folders-fs.ts';
import { SERVER_DIR, SERVER_ENTRY } from '../../core/publishing/manifest.ts';
import type { Logger } from '../logger.ts';

/** Renders the on-demand page a request names with the given locals; undefined when none matches. */
export type PageRenderer = (request: Request, locals: { live: LiveData }) => Promise<Response | undefined>;

/**
 * The build's page renderer, or undefined for a build made without on-demand pages. It renders `warm`
 * once: the code it imports on first use is then loaded while its folder surely exists, as a renderer
 * kept for later builds outlives it (three builds are kept on disk).
 */
export async function loadPageRenderer(buildDir: string, warm: { url: string; live: LiveData }): Promise<PageRenderer | undefined> {
  if (!(await hasPageCode(buildDir))) return undefined;
  const entry = path.join(buildDir, SERVER_DIR, SERVER_ENTRY);
  const module = (await import(pathToFileURL(entry).href)) as { renderPage?: unknown };
  if (typeof module.renderPage !== 'function') throw new Error(`${entry} does not export renderPage: a build made by an older version; build again`);
  const render = module.renderPage as PageRenderer;
  await (await render(new Request(warm.url), { live: warm.live }))?.arrayBuffer();
  return render;
}

/**
 * The service's own copies of the page code it imports, each in a numbered folder under one folder of the
 * system's temporary folder that this process owns: named with its pid, so a later start removes it once
 * the process is gone, and removed whole by `close()`. A copy stays while a renderer may still use it: the
 * one in service and the one it just replaced (a request may be rendering with it). The page code needs
 * nothing from beside the build folder (it is self-contained, load-pages.ts), so it runs from anywhere.
 */
export type PageCodeCopies = {
  /** The folder to import `buildDir`'s page code from: a new copy of its `_server`, or `buildDir` itself when it has none or no copy can be made. */
  copy(buildDir: string): Promise<string>;
  /** Removes every copy but those in `dirs`. */
  keepOnly(dirs: readonly string[]): Promise<void>;
  close(): void;
};

const COPIES_PREFIX = 'reviews-page-code-';

export async function createPageCodeCopies(log?: Logger): Promise<PageCodeCopies> {
  const temp = tmpdir();
  for (const name of await readdir(temp).catch(() => [] as string[])) {
    if (name.startsWith(COPIES_PREFIX) && !isOwnerAlive(name)) await rm(path.join(temp, name), { recursive: true, force: true }).catch(() => {});
  }
  const root = await mkdtemp(path.join(temp, `${COPIES_PREFIX}p${process.pid}-`)).catch((error: unknown) => {
    log?.warn('page_code_not_copied', { dir: temp, error: String(error) });
    return undefined;
  });
  let made = 0;
  let closed = false;
  return {
    async copy(buildDir) {
      if (root === undefined || closed || !(await hasPageCode(buildDir))) return buildDir;
      const dir = path.join(root, String(++made));
      try {
        await cp(path.join(buildDir, SERVER_DIR), path.join(dir, SERVER_DIR), { recursive: true });
        return dir;
      } catch (error) {
        log?.warn('page_code_not_copied', { dir, error: String(error) });
        await rm(dir, { recursive: true, force: true }).catch(() => {});
        return buildDir;
      }
    },
    async keepOnly(dirs) {
      if (root === undefined) return;
      for (const name of await readdir(root).catch(() => [] as string[])) {
        const dir = path.join(root, name);
        if (!dirs.includes(dir)) await rm(dir, { recursive: true, force: true }).catch(() => {});
      }
    },
    close() {
      closed = true;
      if (root !== undefined) rmSync(root, { recursive: true, force: true });
    },
  };
}

/** Whether the build folder holds on-demand page code (still: a kept renderer's folder may have been removed). */
export async function hasPageCode(buildDir: string): Promise<boolean> {
  return access(path.join(buildDir, SERVER_DIR, SERVER_ENTRY)).then(
    () => true,
    () => false,
  );
}

/** Set aside in the page code's bytes: what two builds of the same code write differently. */
const PER_BUILD = [
  // The build's staging folder, wherever DIST_DIR is (in Astro's manifest: a folder gone once the build is in place),
  // and its cache folder, both named by the build's own stamp.
  [/[^"'`\s]*\/\.builds\/staging-[\w-]+/g, '#staging'],
  [/reviews-build\/[\w-]+/g, 'reviews-build/#'],
  // Astro's per-build key for server islands (unused: no page defers a component).
  [/"key":"[A-Za-z0-9+/=]+"/g, '"key":"#"'],
  // Chunk names carry a hash of their content, which holds the paths above.
  [/_[\w-]{8}\.mjs\b/g, '_#.mjs'],
] as const;

/** A hash of the build's page code with PER_BUILD set aside; undefined for a build without on-demand pages. */
export async function pageCodeIdentity(buildDir: string): Promise<string | undefined> {
  const root = path.join(buildDir, SERVER_DIR);
  const files = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => undefined);
  if (!files) return undefined;
  const hash = createHash('sha256');
  const names = files.filter((f) => f.isFile()).map((f) => path.relative(root, path.join(f.parentPath, f.name))).sort();
  for (const name of names) {
    let text = `${name}\n${await readFile(path.join(root, name), 'utf8')}`;
    for (const [pattern, replacement] of PER_BUILD) text = text.replace(pattern, replacement);
    hash.update(`${text.length}:${text}`);
  }
  return hash.digest('hex');
}
