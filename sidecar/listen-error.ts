/**
 * The errors of `server.listen` that the user fixes by changing PORT or HOST, each told in one line
 * that names the variable (never a stack trace). Any other error is unexpected and stays an exception.
 */
export function describeListenError(error: unknown, where: { host: string; port: number }): string | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const at = `${where.host.includes(':') ? `[${where.host}]` : where.host}:${where.port}`;
  switch (code) {
    case 'EADDRINUSE':
      return `Cannot listen on ${at}: the port is already in use by another program. Stop that program, or set PORT to a free port.`;
    case 'EACCES':
      return `Cannot listen on ${at}: permission denied (ports below 1024 need privileges). Set PORT to 1024 or above.`;
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
      return `Cannot listen on ${at}: this machine has no such address. Set HOST to one of its addresses (127.0.0.1, or 0.0.0.0 for all).`;
    default:
      return undefined;
  }
}
