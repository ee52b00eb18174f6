/**
 * `npm run witness-request -- --contact <email or URL> [--list testing|staging]`: prints the participation
 * request a business sends to witness-network.org (https://witness-network.org/participate) so its public
 * witnesses cosign its review log: the log's origin, its verifier key (Ed25519, type 0x01, named after the
 * origin), the add-checkpoint rate it keeps to (LOG_WITNESS_QPD) and a contact. Reads the key from the
 * current build's `log/vkey`; exit 1 when there is no log yet (publish first).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { logOriginOf } from '../core/log/log-files.ts';
import { readEntryConfig } from './lib/entry-config.ts';

const USAGE = 'Usage: npm run witness-request -- --contact <email or URL> [--list testing|staging]';

export function renderWitnessRequest(input: { origin: string; vkey: string; qpd: number; contact: string; list: string }): string {
  return [
    'To: participate (at) lists.witness-network.org',
    `Subject: Log participation request: ${input.origin}`,
    '',
    `origin ${input.origin}`,
    `vkey ${input.vkey}`,
    `qpd ${input.qpd}`,
    `contact ${input.contact}`,
    `list ${input.list}`,
    '',
    `A review log (C2SP tlog-tiles, tlog-checkpoint) of the reviews a business publishes at https://${input.origin.replace(/\/log$/, '')}/.`,
    `It sends add-checkpoint requests at most ${input.qpd} times a day to each witness, only when it has published something new.`,
    '',
  ].join('\n');
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { contact: { type: 'string' }, list: { type: 'string', default: 'staging' } } });
  if (!values.contact || !['testing', 'staging'].includes(values.list)) {
    console.error(USAGE);
    return 2;
  }
  const { config } = readEntryConfig();
  const origin = logOriginOf(config.publicUrl);
  const vkey = await readFile(path.join(config.distDir, 'log', 'vkey'), 'utf8').catch(() => undefined);
  if (vkey === undefined || !vkey.startsWith(`${origin}+`)) {
    console.error(`No review log for ${origin} in ${config.distDir}/log/: publish first (npm run publish), with PUBLIC_URL set to the public address.`);
    return 1;
  }
  process.stdout.write(renderWitnessRequest({ origin, vkey: vkey.trim(), qpd: config.logWitnessing.qpd, contact: values.contact, list: values.list }));
  return 0;
}

if (import.meta.main) process.exitCode = await main();
