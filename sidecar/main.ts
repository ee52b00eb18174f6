/**
 * The sidecar's entry point. `runSidecar` starts it from a parsed Config and stops it cleanly on
 * SIGINT/SIGTERM; scripts/start.ts calls it with the Config it parsed, and `node sidecar/main.ts`
 * parses the environment here, once.
 */
import type { Config } from '../core/config.ts';
import { readConfigOrExit } from '../scripts/lib/read-config.ts';
import { describeListenError } from './listen-error.ts';
import { startSidecar, type RunningSidecar } from './server.ts';

/** A port in use or an unknown HOST ends the process with one line naming the variable to change. */
export async function runSidecar(config: Config): Promise<RunningSidecar> {
  const sidecar = await startSidecar(config).catch((error: unknown) => {
    const problem = describeListenError(error, config);
    if (!problem) throw error;
    console.error(problem);
    process.exit(1);
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      void sidecar.close().then(() => process.exit(0));
    });
  }
  return sidecar;
}

if (import.meta.main) {
  await runSidecar(readConfigOrExit());
}
