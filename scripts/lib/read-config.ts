/** An entry point's first step: the configuration from the environment, or one line per problem and exit 1. */
import { formatConfigProblems, parseConfig, type Config } from '../../core/config.ts';

export function readConfigOrExit(env: Record<string, string | undefined> = process.env): Config {
  const parsed = parseConfig(env);
  if (parsed.ok) return parsed.config;
  console.error(formatConfigProblems(parsed.problems));
  process.exit(1);
}
