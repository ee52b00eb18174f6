/**
 * Whether and how a build continues the review log (docs/log.md): a pure decision over what
 * `gatherReviewLogFacts` (review-log.ts) found on this machine and at PUBLIC_URL. It never starts a second
 * history for an address that has one, so a new key is made only where no log can exist: a development
 * address (loopback, or a name reserved for examples and tests by RFC 2606 and RFC 6761), an address that
 * answers without a log, or one the owner declares new (`--new-log`). Every refusal names a command that
 * works from that state (docs/operations.md, "When publishing refuses").
 */
import { formatVerifierKey, type NoteSigner, type OpenedLog } from '../../core/log/index.ts';
import { isLoopback } from './entry-config.ts';

/** A log as found: the demo's (its fixed public key) is no history of the owner's. */
export type FoundLog = { log: OpenedLog; demo: boolean };

export type ReviewLogFacts = {
  origin: string;
  publicUrl: string;
  demo: boolean;
  /** `--new-log`: the owner says nothing was ever published at this address. */
  newLog: boolean;
  /** Where the key is kept, and where the last log is fetched from, for the messages. */
  keyFile: string;
  remoteBase: string;
  key:
    | { state: 'absent' }
    | { state: 'found'; signer: NoteSigner; source: string }
    | { state: 'unreadable'; source: string; reason: string }
    | { state: 'other-origin'; source: string; name: string };
  /** The last log on this machine: the served build's `log/`, else the copy a restore put back. */
  local: { state: 'absent' } | { state: 'found'; found: FoundLog } | { state: 'damaged'; dir: string; reason: string };
  /** The log at PUBLIC_URL, asked only when this machine has no log of the owner's. */
  remote: { state: 'not-asked' } | { state: 'absent' } | { state: 'found'; found: FoundLog } | { state: 'damaged'; reason: string } | { state: 'unreachable'; reason: string };
  /** Verifier keys listed as retired (`<key file>.previous`): a log signed by one goes on under the new key. */
  retired: readonly string[];
};

export type ReviewLogDecision =
  | { ok: true; previous: OpenedLog | undefined; signer: NoteSigner | undefined; demoSigner: boolean }
  | { ok: false; message: string };

const RESTORE = 'npm run restore -- <backup made by npm run backup>';

/**
 * True where no public review log can live: loopback, `localhost` and its subdomains, and the names
 * RFC 2606 and RFC 6761 reserve (`example`, `test`, `invalid`, `example.com`, `.net`, `.org`).
 */
export function isDevelopmentAddress(publicUrl: string): boolean {
  const host = new URL(publicUrl).hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (isLoopback(host) || host.endsWith('.localhost')) return true;
  return /(^|\.)(example|test|invalid|localhost|example\.com|example\.net|example\.org)$/.test(host);
}

export function decideReviewLog(facts: ReviewLogFacts): ReviewLogDecision {
  const { origin, keyFile, remoteBase } = facts;
  if (facts.demo) {
    const previous = facts.local.state === 'found' && facts.local.found.demo ? facts.local.found.log : undefined;
    return { ok: true, previous, signer: undefined, demoSigner: true };
  }
  const key = facts.key;
  if (key.state === 'unreadable') {
    return { ok: false, message: `The review log's key in ${key.source} cannot be read: ${key.reason}. Put the key back from a backup (${RESTORE}), or set LOG_SIGNING_KEY to it, then build again.` };
  }
  if (key.state === 'other-origin') {
    return { ok: false, message: `The review log's key in ${key.source} is for ${key.name}, but this build publishes ${origin} (PUBLIC_URL ${facts.publicUrl}). Set PUBLIC_URL to the address the log was published at, or give the key of ${origin}.` };
  }
  const signer = key.state === 'found' ? key.signer : undefined;
  if (facts.local.state === 'damaged') {
    return { ok: false, message: `The review log in ${facts.local.dir}/ cannot be continued: ${facts.local.reason}. Restore the last log from a backup (${RESTORE}), or publish from a machine that has it.` };
  }
  let previous: OpenedLog | undefined = facts.local.state === 'found' && !facts.local.found.demo ? facts.local.found.log : undefined;
  if (previous === undefined) {
    const remote = facts.remote;
    if (remote.state === 'found') previous = remote.found.demo ? undefined : remote.found.log;
    else if (remote.state === 'damaged') {
      return { ok: false, message: `${remoteBase}/ already has a review log that this build cannot continue: ${remote.reason}. ${signer ? '' : `Give this machine the log's key (${RESTORE}, or LOG_SIGNING_KEY). `}A second history for one address is never started.` };
    } else if (remote.state === 'unreachable' && signer !== undefined && !facts.newLog) {
      return {
        ok: false,
        message: `This machine has the review log's key for ${origin} (${key.state === 'found' ? key.source : ''}) but not the last published log: this machine has none and ${remoteBase}/ cannot be read (${remote.reason}). Restore the last log (${RESTORE}), or make ${remoteBase}/ reachable, then build again. ${key.state === 'found' && key.source === 'LOG_SIGNING_KEY' ? 'Check that PUBLIC_URL is the address the log was published at; if nothing was ever published there, start its log with npm run build -- --new-log.' : `If nothing was ever published at this address, delete ${keyFile} and build again.`}`,
      };
    } else if (remote.state === 'unreachable' && !facts.newLog && !isDevelopmentAddress(facts.publicUrl)) {
      return {
        ok: false,
        message: `No review log key for ${origin} on this machine, and ${remoteBase}/ cannot be read (${remote.reason}), so this build cannot tell whether a log was published there. If one was, put its key and last log back (${RESTORE}, or LOG_SIGNING_KEY) and build again; if this address never had one, start its log with npm run build -- --new-log (or npm run publish -- --new-log).`,
      };
    }
  }
  if (previous && signer && formatVerifierKey(previous.verifier) !== formatVerifierKey(signer) && !facts.retired.includes(formatVerifierKey(previous.verifier))) {
    // A rotation (docs/log.md): the owner lists the key being retired, so the log goes on under the new one.
    return { ok: false, message: `The last review log for ${origin} is signed by ${formatVerifierKey(previous.verifier)}, not by the key in ${key.state === 'found' ? key.source : ''} (${formatVerifierKey(signer)}). Use the log's own key; to rotate to this one, list the old verifier key in ${keyFile}.previous (docs/log.md).` };
  }
  if (previous && !signer) {
    return { ok: false, message: `The review log for ${origin} (signed by ${formatVerifierKey(previous.verifier)}) cannot be continued: this machine does not have its key. Set LOG_SIGNING_KEY, or put the key file back at ${keyFile} (${RESTORE} puts it back).` };
  }
  return { ok: true, previous, signer, demoSigner: false };
}
