/** Structured JSON logs on stdout, one object per line (CONTRACT.md `LOG_LEVEL`). */
const LEVELS = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;
export type LogLevel = keyof typeof LEVELS;
export type Logger = Record<Exclude<LogLevel, 'silent'>, (event: string, fields?: Record<string, unknown>) => void>;

export function createLogger(level: LogLevel, write: (line: string) => void = (line) => process.stdout.write(line)): Logger {
  const at = (name: Exclude<LogLevel, 'silent'>) => (event: string, fields: Record<string, unknown> = {}) => {
    if (LEVELS[name] < LEVELS[level]) return;
    write(`${JSON.stringify({ time: new Date().toISOString(), level: name, event, ...fields })}\n`);
  };
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}
