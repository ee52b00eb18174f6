/**
 * The sidecar's entry point. `runSidecar` starts it from a parsed Config and stops it cleanly on
 * SIGINT/SIGTERM; scripts/start.ts calls it with the Config it parsed, and `node sidecar/main.ts`
 * parses the environment here, once.
 */
import { formatConfigProblems, parseConfig, type Config } from '../core/config.ts';
import { startSidecar, type RunningSidecar } from './server.ts';

export async function runSidecar(config: Config): Promise<RunningSidecar> {
  const sidecar = await startSidecar(config);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      void sidecar.close().then(() => process.exit(0));
    });
  }
  return sidecar;
}

if (import.meta.main) {
  const parsed = parseConfig(process.env);
  if (!parsed.ok) {
    console.error(formatConfigProblems(parsed.problems));
    process.exit(1);
  }
  await runSidecar(parsed.config);
}
