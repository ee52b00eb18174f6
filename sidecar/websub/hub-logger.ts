/** The hub's logging seam; the composition root passes the service's structured logger. */
export type HubLogger = {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
};

export const silentLogger: HubLogger = { info() {}, warn() {}, error() {} };
