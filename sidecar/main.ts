/** The composition root: reads the environment once and starts the sidecar. */
import { parseConfig } from './config.ts';
import { startSidecar } from './server.ts';

const parsed = parseConfig(process.env);
if (!parsed.ok) {
  console.error(`Invalid configuration:\n${parsed.problems.map((p) => `  - ${p}`).join('\n')}`);
  process.exit(1);
}
const sidecar = await startSidecar(parsed.config);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void sidecar.close().then(() => process.exit(0));
  });
}
