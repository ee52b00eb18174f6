/**
 * `npm run serve`: the service alone, serving the build already at DIST_DIR (no build check; `npm start`
 * builds first when the build is missing or stale). What the containers, the units and the tests run
 * when something else makes the builds. Configuration from the environment and `.env`
 * (scripts/lib/entry-config.ts); stops gracefully on SIGINT/SIGTERM (sidecar/main.ts).
 */
import { runSidecar } from '../sidecar/main.ts';
import { readEntryConfig } from './lib/entry-config.ts';
import { checkRunningService, recordRunningService } from './lib/running-service.ts';

const { config } = readEntryConfig();
// Before anything is written (a build recovered into DIST_DIR): a service for another address on DIST_DIR refuses this one.
const running = await checkRunningService(config, 'Not started', { store: true });
if (!running.ok) {
  console.error(running.message);
  process.exit(1);
}
const sidecar = await runSidecar(config);
await recordRunningService(config.distDir, { publicUrl: config.publicUrl, url: sidecar.url });
