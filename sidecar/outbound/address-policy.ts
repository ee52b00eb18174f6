/**
 * Which IP addresses the hub may call (SSRF defence). A callback host is resolved once, every address it
 * resolves to is checked here, and the connection then goes to the checked address (websub/callbacks/client.ts),
 * so a second DNS answer cannot rebind the request elsewhere.
 *
 * Two tiers:
 * - never: unspecified, multicast, broadcast/reserved-for-future-use and cloud-metadata addresses. No
 *   callback lives there, whatever the configuration.
 * - private: loopback, RFC 1918, shared (CGNAT), link-local, unique-local, documentation and benchmark
 *   ranges (RFC 6890: not globally reachable). Allowed only with `allowPrivateCallbacks` (tests, intranets).
 *
 * IPv6 addresses that embed an IPv4 address (IPv4-mapped, IPv4-compatible, IPv4-translated (SIIT)
 * ::ffff:0:0/96, NAT64 64:ff9b::/96, 6to4 2002::/16) are judged by the IPv4 address they reach; the
 * local-use NAT64 prefix 64:ff9b:1::/48 counts as private.
 */
import { BlockList, isIPv4, isIPv6 } from 'node:net';

export type AddressVerdict = { allowed: true } | { allowed: false; category: string };

type Rule = { category: string; tier: 'never' | 'private'; list: BlockList };

function makeRule(category: string, tier: Rule['tier'], v4: string[], v6: string[]): Rule {
  const list = new BlockList();
  for (const cidr of v4) addCidr(list, cidr, 'ipv4');
  for (const cidr of v6) addCidr(list, cidr, 'ipv6');
  return { category, tier, list };
}

function addCidr(list: BlockList, cidr: string, type: 'ipv4' | 'ipv6'): void {
  const [net, bits] = cidr.split('/');
  list.addSubnet(net!, Number(bits ?? (type === 'ipv4' ? 32 : 128)), type);
}

// Order matters: the first matching rule names the category (metadata before link-local).
const RULES: Rule[] = [
  makeRule(
    'cloud-metadata',
    'never',
    // AWS/GCP/Azure/OpenStack IMDS, AWS ECS task metadata, Alibaba, Azure WireServer, Oracle.
    ['169.254.169.254/32', '169.254.170.2/32', '100.100.100.200/32', '168.63.129.16/32', '192.0.0.192/32'],
    ['fd00:ec2::254/128', 'fd00:ec2::23/128'],
  ),
  makeRule('unspecified', 'never', ['0.0.0.0/8'], ['::/128']),
  makeRule('multicast', 'never', ['224.0.0.0/4'], ['ff00::/8']),
  makeRule('reserved', 'never', ['240.0.0.0/4'], []),
  makeRule('loopback', 'private', ['127.0.0.0/8'], ['::1/128']),
  // 64:ff9b:1::/48 (RFC 8215) is local-use NAT64: where it leads depends on the local translator.
  makeRule('private', 'private', ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16'], ['fc00::/7', 'fec0::/10', '64:ff9b:1::/48']),
  makeRule('shared', 'private', ['100.64.0.0/10'], []),
  makeRule('link-local', 'private', ['169.254.0.0/16'], ['fe80::/10']),
  makeRule(
    'special-purpose',
    'private',
    ['192.0.0.0/24', '192.0.2.0/24', '198.18.0.0/15', '198.51.100.0/24', '203.0.113.0/24'],
    ['100::/64', '2001::/32', '2001:db8::/32'],
  ),
];

/** Judges one literal IP address. Anything that is not an IP address is refused. */
export function checkAddress(address: string, options: { allowPrivate: boolean }): AddressVerdict {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  let ip = bare;
  let type: 'ipv4' | 'ipv6';
  if (isIPv4(bare)) {
    type = 'ipv4';
  } else if (isIPv6(bare)) {
    const embedded = embeddedIpv4(bare);
    if (embedded) {
      ip = embedded;
      type = 'ipv4';
    } else {
      type = 'ipv6';
    }
  } else {
    return { allowed: false, category: 'not-an-ip-address' };
  }
  for (const rule of RULES) {
    if (!rule.list.check(ip, type)) continue;
    if (rule.tier === 'private' && options.allowPrivate) return { allowed: true };
    return { allowed: false, category: rule.category };
  }
  return { allowed: true };
}

/** The IPv4 address an IPv6 address stands for, if it embeds one (see the module comment). */
export function embeddedIpv4(ipv6: string): string | undefined {
  const bytes = parseIpv6(ipv6);
  if (!bytes) return undefined;
  const zeros = (from: number, to: number) => bytes.slice(from, to).every((b) => b === 0);
  const v4 = (at: number) => Array.from(bytes.slice(at, at + 4)).join('.');
  // ::ffff:a.b.c.d (mapped) and ::a.b.c.d (compatible; :: and ::1 themselves are not).
  if (zeros(0, 10) && bytes[10] === 0xff && bytes[11] === 0xff) return v4(12);
  if (zeros(0, 12) && !zeros(12, 15)) return v4(12);
  // ::ffff:0:a.b.c.d (SIIT, RFC 2765 §2.1: IPv4-translated).
  if (zeros(0, 8) && bytes[8] === 0xff && bytes[9] === 0xff && zeros(10, 12)) return v4(12);
  // 64:ff9b::/96 (RFC 6052 well-known NAT64 prefix).
  if (bytes[0] === 0 && bytes[1] === 0x64 && bytes[2] === 0xff && bytes[3] === 0x9b && zeros(4, 12)) return v4(12);
  // 2002:V4ADDR::/48 (6to4).
  if (bytes[0] === 0x20 && bytes[1] === 0x02) return v4(2);
  return undefined;
}

function parseIpv6(text: string): Uint8Array | undefined {
  let s = text;
  const tail: number[] = [];
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (dotted) {
    if (!isIPv4(dotted[1]!)) return undefined;
    const parts = dotted[1]!.split('.').map(Number);
    tail.push((parts[0]! << 8) | parts[1]!, (parts[2]! << 8) | parts[3]!);
    s = s.slice(0, -dotted[1]!.length);
    if (s.endsWith(':') && !s.endsWith('::')) s = s.slice(0, -1);
  }
  const [head, rest] = s.split('::') as [string, string | undefined];
  const toGroups = (part: string | undefined) => (part ? part.split(':').filter((g) => g !== '').map((g) => parseInt(g, 16)) : []);
  const left = toGroups(head);
  const right = [...toGroups(rest), ...tail];
  const missing = 8 - left.length - right.length;
  if (missing < 0 || (rest === undefined && missing !== 0)) return undefined;
  const groups = [...left, ...new Array<number>(missing).fill(0), ...right];
  const bytes = new Uint8Array(16);
  groups.forEach((g, i) => {
    bytes[i * 2] = (g >> 8) & 0xff;
    bytes[i * 2 + 1] = g & 0xff;
  });
  return bytes;
}
