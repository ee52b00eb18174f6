/**
 * Who owns a host name, for limits that count owners rather than names (the outbound client's slots,
 * the hub's per-callback caps).
 */
import { isIP } from 'node:net';
import { getDomain } from 'tldts';

/**
 * The registrable domain of a host (its owner): the public suffix plus one label, e.g.
 * `a.b.example.com` → `example.com`, `x.example.co.uk` → `example.co.uk`. An IP address is its own.
 * Suffixes come from the Public Suffix List as the `tldts` package ships it (nothing is downloaded at
 * run time), its private section included, so `someone.github.io` is an owner of its own. A name with no
 * known suffix (`localhost`, an intranet name) counts by its last two labels, which errs towards counting
 * more names together.
 * With the resolved address (`clientKeyOf`: IPv6 by /64), it is what per-callback limits count, so
 * many names of one wildcard domain, or many domains on one address, share one allowance.
 */
export function registrableDomainOf(host: string): string {
  const bare = host.toLowerCase().replace(/^\[|\]$/g, '').replace(/\.$/, '');
  if (isIP(bare)) return bare;
  return getDomain(bare, { allowPrivateDomains: true }) ?? bare.split('.').slice(-2).join('.');
}
