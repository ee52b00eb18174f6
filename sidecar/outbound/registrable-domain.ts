/**
 * Who owns a host name, for limits that count owners rather than names (the outbound client's slots,
 * the hub's per-callback caps).
 */
import { isIP } from 'node:net';

/**
 * Suffixes under which each name belongs to a different owner, beyond the last label: a small, fixed
 * extract of the Public Suffix List (publicsuffix.org), never downloaded at run time. A name under a
 * suffix missing here counts by its last two labels, which errs towards counting more names together.
 */
const MULTI_LABEL_SUFFIXES = new Set([
  'co.uk', 'org.uk', 'ac.uk', 'gov.uk', 'me.uk', 'net.uk', 'ltd.uk', 'plc.uk',
  'com.au', 'net.au', 'org.au', 'edu.au', 'gov.au', 'co.nz', 'org.nz', 'net.nz',
  'co.jp', 'ne.jp', 'or.jp', 'ac.jp', 'co.kr', 'or.kr', 'com.cn', 'net.cn', 'org.cn', 'com.tw', 'com.hk',
  'com.br', 'net.br', 'org.br', 'com.mx', 'com.ar', 'co.in', 'net.in', 'org.in', 'co.za', 'org.za', 'co.il',
  'com.sg', 'com.my', 'com.tr', 'com.ua', 'co.id', 'com.ph', 'com.vn', 'com.pl', 'co.at', 'or.at',
  'github.io', 'gitlab.io', 'netlify.app', 'vercel.app', 'pages.dev', 'workers.dev', 'herokuapp.com',
  'appspot.com', 'azurewebsites.net', 'cloudfront.net', 'fly.dev', 'onrender.com', 'web.app', 'firebaseapp.com',
]);

/**
 * The registrable domain of a host (its owner): the public suffix plus one label, e.g.
 * `a.b.example.com` → `example.com`, `x.example.co.uk` → `example.co.uk`. An IP address is its own.
 * With the resolved address (`clientKeyOf`: IPv6 by /64), it is what per-callback limits count, so
 * many names of one wildcard domain, or many domains on one address, share one allowance.
 */
export function registrableDomainOf(host: string): string {
  const bare = host.toLowerCase().replace(/^\[|\]$/g, '').replace(/\.$/, '');
  if (isIP(bare)) return bare;
  const labels = bare.split('.');
  const keep = labels.length >= 3 && MULTI_LABEL_SUFFIXES.has(labels.slice(-2).join('.')) ? 3 : 2;
  return labels.slice(-keep).join('.');
}
