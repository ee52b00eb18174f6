/**
 * Preloaded by `npm start`, `serve`, `build` and `publish` (`node --import=./scripts/lib/compile-cache.ts`):
 * Node keeps what it compiles of each module, TypeScript's stripped types included, so the next start
 * reads it instead of compiling again: a start of the service on a small build took 1.6 s instead of
 * 2.1 s; a build of it about 7 % less CPU, inside the spread of the runs (docs/development.md). It must
 * run before the command's own modules load, hence a preload; the processes the command starts
 * (Astro's, the worker threads) inherit it through NODE_COMPILE_CACHE. A folder that cannot be written
 * only leaves the cache off.
 */
import { enableCompileCache } from 'node:module';
import { fileURLToPath } from 'node:url';

// The build's cache folder, writable in the image and under the systemd unit; NODE_COMPILE_CACHE names another.
const { directory } = enableCompileCache(process.env.NODE_COMPILE_CACHE || fileURLToPath(new URL('../../node_modules/.cache/node-compile/', import.meta.url)));
if (directory !== undefined) process.env.NODE_COMPILE_CACHE = directory;
