/**
 * The key per-address limits count by: the client's address as Express sees it (`req.ip`, so the app's
 * `trust proxy` setting decides behind a proxy). An IPv4 address is one client, and so is an IPv4 address
 * mapped into IPv6. An IPv6 client gets a whole /64 (RFC 4291 §2.5.4: one subnet, typically one user or
 * site), so rotating through its 2^64 addresses does not multiply its allowance.
 */
import { isIPv6 } from 'node:net';

export function clientKeyOf(address: string | undefined): string {
  if (address === undefined || address === '') return 'unknown';
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '').toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(bare);
  if (mapped) return mapped[1]!;
  if (!isIPv6(bare)) return bare;
  return `${expandIpv6(bare).slice(0, 4).join(':')}::/64`;
}

/** The eight 16-bit groups of an IPv6 address, as hex without leading zeros. */
function expandIpv6(address: string): string[] {
  const [head, tail] = address.split('::') as [string, string | undefined];
  const groups = (part: string | undefined) => (part ? part.split(':').filter(Boolean) : []);
  const left = groups(head);
  const right = groups(tail);
  // A trailing dotted IPv4 part stands for two groups; only the first four groups matter here.
  const width = right.reduce((n, g) => n + (g.includes('.') ? 2 : 1), 0) + left.reduce((n, g) => n + (g.includes('.') ? 2 : 1), 0);
  const zeros = new Array<string>(Math.max(0, 8 - width)).fill('0');
  return [...left, ...zeros, ...right].map((g) => (g.includes('.') ? g : parseInt(g, 16).toString(16)));
}
