/**
 * `npm run serve`: the service alone, serving the build already at DIST_DIR (no build check; `npm start`
 * builds first when the build is missing or stale). What the containers, the units and the tests run
 * when something else makes the builds. Configuration from the environment and `.env`
 * (scripts/lib/entry-config.ts); stops gracefully on SIGINT/SIGTERM (sidecar/main.ts).
 */
import { runSidecar } from '../sidecar/main.ts';
import { readEntryConfig } from './lib/entry-config.ts';

await runSidecar(readEntryConfig().config);
