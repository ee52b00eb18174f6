/**
 * C2SP tlog-policy: which log keys and witness keys a reader trusts, and the quorum of witnesses whose
 * cosignatures make a checkpoint valid.
 *
 * The file is lines; items are separated by spaces and tabs only; empty lines and lines starting with
 * `#` (after whitespace) are ignored; the only control characters allowed are tab and newline. Lines:
 * `log <vkey> [<url>]`, `witness <name> <vkey> [<url>]`, `group <name> all|any|<k> <name>...` (members
 * defined on earlier lines, each once, 1 ≤ k ≤ n) and exactly one `quorum <name>` (`none`: no
 * cosignature needed). Witnesses and groups share one namespace, where `none` is taken. No two logs, nor
 * two witnesses, may wrap the same public key. We read Ed25519 keys only: log keys of type 0x01
 * (signed-note), witness keys of type 0x04 (tlog-cosignature `cosignature/v1`).
 *
 * No Node module (keys are read by proof-check.ts), so the browser's check page reads the site's policy
 * with the same code as `npm run verify -- --policy`.
 */
import { encodeBase64 } from './proof-format.ts';
import { COSIGNATURE_ED25519, parseVerifierKeyText, type ProofTrust, type VerifierKey } from './proof-check.ts';

const SIGNED_NOTE_ED25519 = 0x01;

type Member = { kind: 'witness'; name: string } | { kind: 'group'; name: string; threshold: number; members: string[] };

export type TlogPolicy = {
  logs: { key: VerifierKey; url?: string }[];
  witnesses: Map<string, { key: VerifierKey; url?: string }>;
  /** Every witness and group by name, in the order defined. */
  names: Map<string, Member>;
  /** `none`, a witness or a group. */
  quorum: string;
};

/** Reads a policy; every problem, each with its line number, when it is not one. */
export function parseTlogPolicy(text: string): { ok: true; value: TlogPolicy } | { ok: false; problems: string[] } {
  const problems: string[] = [];
  const policy: TlogPolicy = { logs: [], witnesses: new Map(), names: new Map(), quorum: '' };
  const keysSeen = new Set<string>();
  let quorums = 0;
  text.split('\n').forEach((raw, i) => {
    const at = `line ${i + 1}`;
    if (/[\x00-\x08\x0b-\x1f\x7f]/.test(raw)) return void problems.push(`${at}: a control character other than tab`);
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const [word, ...items] = line.split(/[ \t]+/);
    if (word === 'log') {
      if (items.length < 1 || items.length > 2) return void problems.push(`${at}: a log line is "log <vkey> [<url>]"`);
      const key = parseVerifierKeyText(items[0]!, SIGNED_NOTE_ED25519);
      if (!key.ok) return void problems.push(`${at}: the log key: ${key.reason}`);
      const raw = encodeBase64(key.value.publicKey);
      if (keysSeen.has(`log ${raw}`)) return void problems.push(`${at}: a second log with the same public key`);
      keysSeen.add(`log ${raw}`);
      policy.logs.push({ key: key.value, ...(items[1] ? { url: items[1] } : {}) });
    } else if (word === 'witness') {
      if (items.length < 2 || items.length > 3) return void problems.push(`${at}: a witness line is "witness <name> <vkey> [<url>]"`);
      const [name, vkey, url] = items as [string, string, string | undefined];
      if (name === 'none' || policy.names.has(name)) return void problems.push(`${at}: the name ${name} is already taken`);
      const key = parseVerifierKeyText(vkey, COSIGNATURE_ED25519);
      if (!key.ok) return void problems.push(`${at}: the key of witness ${name}: ${key.reason}`);
      const raw = encodeBase64(key.value.publicKey);
      if (keysSeen.has(`witness ${raw}`)) return void problems.push(`${at}: a second witness with the same public key`);
      keysSeen.add(`witness ${raw}`);
      policy.witnesses.set(name, { key: key.value, ...(url ? { url } : {}) });
      policy.names.set(name, { kind: 'witness', name });
    } else if (word === 'group') {
      const [name, k, ...members] = items;
      if (name === undefined || k === undefined || members.length === 0) return void problems.push(`${at}: a group line is "group <name> all|any|<k> <name>..."`);
      if (name === 'none' || policy.names.has(name)) return void problems.push(`${at}: the name ${name} is already taken`);
      const undefinedMember = members.find((m) => !policy.names.has(m));
      if (undefinedMember !== undefined) return void problems.push(`${at}: ${undefinedMember} is not a witness or group defined on an earlier line`);
      if (new Set(members).size !== members.length) return void problems.push(`${at}: a member is listed twice`);
      const threshold = k === 'all' ? members.length : k === 'any' ? 1 : /^[1-9][0-9]*$/.test(k) ? Number(k) : NaN;
      if (!(threshold >= 1 && threshold <= members.length)) return void problems.push(`${at}: the threshold must be all, any or a number from 1 to ${members.length}`);
      policy.names.set(name, { kind: 'group', name, threshold, members });
    } else if (word === 'quorum') {
      quorums += 1;
      if (items.length !== 1) return void problems.push(`${at}: a quorum line is "quorum <name>"`);
      if (items[0] !== 'none' && !policy.names.has(items[0]!)) return void problems.push(`${at}: ${items[0]} is not a witness or group defined on an earlier line`);
      policy.quorum = items[0]!;
    } else {
      problems.push(`${at}: unknown line "${(word ?? '').slice(0, 40)}" (log, witness, group or quorum)`);
    }
  });
  if (quorums !== 1) problems.push(`a policy has exactly one quorum line, not ${quorums}`);
  return problems.length > 0 ? { ok: false, problems } : { ok: true, value: policy };
}

/** Whether the cosigners meet the quorum, and the witnesses of the quorum that did not cosign. */
export function checkQuorum(policy: TlogPolicy, cosigners: ReadonlySet<string>): { met: boolean; missing: string[] } {
  const missing = new Set<string>();
  const witnessed = (name: string): boolean => {
    const member = policy.names.get(name)!;
    if (member.kind === 'witness') {
      if (!cosigners.has(name)) missing.add(name);
      return cosigners.has(name);
    }
    return member.members.filter(witnessed).length >= member.threshold;
  };
  const met = policy.quorum === 'none' || witnessed(policy.quorum);
  return { met, missing: [...missing] };
}

/**
 * What a reader of a proof (proof-check.ts) trusts under `policy`: its log key named `origin` (else its
 * only one), every witness's key, and its quorum. The proof check names witnesses by their keys' names;
 * the quorum is counted in the policy's own names.
 */
export function policyTrust(policy: TlogPolicy, origin: string): ProofTrust {
  const log = (policy.logs.find((l) => l.key.name === origin) ?? policy.logs[0]!).key;
  const entries = [...policy.witnesses];
  return {
    log,
    witnesses: entries.map(([, w]) => w.key),
    quorum: (cosigned) => checkQuorum(policy, new Set(entries.filter(([, w]) => cosigned.has(w.key.name)).map(([name]) => name))).met,
  };
}

/** Renders a policy: the log, each witness, and one group of them all with `threshold`, as the quorum. */
export function formatTlogPolicy(input: { log: string; witnesses: readonly { name: string; vkey: string; url?: string }[]; threshold: number }): string {
  const lines = [`log ${input.log}`, ...input.witnesses.map((w) => `witness ${w.name} ${w.vkey}${w.url ? ` ${w.url}` : ''}`)];
  if (input.witnesses.length === 0) lines.push('quorum none');
  else lines.push(`group witnesses ${input.threshold} ${input.witnesses.map((w) => w.name).join(' ')}`, 'quorum witnesses');
  return `${lines.join('\n')}\n`;
}
