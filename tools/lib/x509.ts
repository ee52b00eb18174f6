/**
 * Just enough X.509 (RFC 5280) in DER to make a test certificate authority with node:crypto alone, so
 * the tests need no `openssl` command: ECDSA P-256 keys, SHA-256 signatures, a CN-only name, and the
 * extensions a TLS client checks (basicConstraints, keyUsage, extKeyUsage, subjectAltName).
 */
import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { isIP } from 'node:net';

export type CertificateRequest = {
  subject: string;
  issuer: string;
  serial: number;
  publicKey: KeyObject;
  /** The issuer's private key (the subject's own for a self-signed certificate). */
  signingKey: KeyObject;
  days: number;
  /** A CA certificate (keyCertSign), or a TLS server certificate for these DNS names and IP addresses. */
  kind: { ca: true } | { ca: false; names: readonly string[] };
};

export function generateP256KeyPair(): { privateKey: KeyObject; publicKey: KeyObject } {
  return generateKeyPairSync('ec', { namedCurve: 'P-256' });
}

/** The certificate, PEM. */
export function createCertificate(request: CertificateRequest): string {
  const now = Date.now();
  const tbs = seq(
    explicit(0, int(2)), // v3
    int(request.serial),
    ECDSA_WITH_SHA256,
    name(request.issuer),
    // An hour back, so a clock a little behind still accepts it.
    seq(utcTime(new Date(now - 3_600_000)), utcTime(new Date(now + request.days * 86_400_000))),
    name(request.subject),
    request.publicKey.export({ type: 'spki', format: 'der' }),
    explicit(3, seq(...extensions(request.kind))),
  );
  const signature = sign('sha256', tbs, request.signingKey);
  const der = seq(tbs, ECDSA_WITH_SHA256, bitString(signature));
  const base64 = der.toString('base64').replace(/.{64}/g, '$&\n').trimEnd();
  return `-----BEGIN CERTIFICATE-----\n${base64}\n-----END CERTIFICATE-----\n`;
}

function extensions(kind: CertificateRequest['kind']): Buffer[] {
  if (kind.ca) {
    return [
      extension('2.5.29.19', true, seq(TRUE)), // basicConstraints: CA
      extension('2.5.29.15', true, der(0x03, Buffer.from([0x01, 0x06]))), // keyUsage: keyCertSign, cRLSign
    ];
  }
  return [
    extension('2.5.29.19', false, seq()), // basicConstraints: not a CA
    extension('2.5.29.15', true, der(0x03, Buffer.from([0x07, 0x80]))), // keyUsage: digitalSignature
    extension('2.5.29.37', false, seq(oid('1.3.6.1.5.5.7.3.1'))), // extKeyUsage: serverAuth
    extension('2.5.29.17', false, seq(...kind.names.map(generalName))), // subjectAltName
  ];
}

/** dNSName [2] or iPAddress [7] (RFC 5280 §4.2.1.6). */
function generalName(value: string): Buffer {
  const version = isIP(value);
  if (version === 4) return der(0x87, Buffer.from(value.split('.').map(Number)));
  if (version === 6) return der(0x87, ipv6Bytes(value));
  return der(0x82, Buffer.from(value, 'ascii'));
}

function ipv6Bytes(address: string): Buffer {
  const [head = '', tail = ''] = address.split('::');
  const groups = (part: string) => (part ? part.split(':').map((g) => parseInt(g, 16)) : []);
  const left = groups(head);
  const right = address.includes('::') ? groups(tail) : [];
  const all = [...left, ...Array(8 - left.length - right.length).fill(0), ...right];
  const bytes = Buffer.alloc(16);
  all.forEach((group, i) => bytes.writeUInt16BE(group, i * 2));
  return bytes;
}

const extension = (id: string, critical: boolean, value: Buffer) => seq(oid(id), ...(critical ? [TRUE] : []), der(0x04, value));
const name = (commonName: string) => seq(der(0x31, seq(oid('2.5.4.3'), der(0x0c, Buffer.from(commonName)))));
const utcTime = (date: Date) => der(0x17, Buffer.from(`${date.toISOString().replace(/[-:T]/g, '').slice(2, 14)}Z`));
const bitString = (bytes: Buffer) => der(0x03, Buffer.concat([Buffer.from([0]), bytes]));
const explicit = (tag: number, inner: Buffer) => der(0xa0 + tag, inner);
const seq = (...parts: Buffer[]) => der(0x30, ...parts);

function int(value: number): Buffer {
  let bytes = Buffer.from(value.toString(16).padStart(2, '0').replace(/^(.(..)*)$/, '0$1'), 'hex');
  if (bytes[0]! & 0x80) bytes = Buffer.concat([Buffer.from([0]), bytes]);
  return der(0x02, bytes);
}

function oid(dotted: string): Buffer {
  const [first = 0, second = 0, ...rest] = dotted.split('.').map(Number);
  const bytes = [40 * first + second];
  for (const arc of rest) {
    const base128 = [arc & 0x7f];
    for (let v = arc >>> 7; v > 0; v >>>= 7) base128.unshift((v & 0x7f) | 0x80);
    bytes.push(...base128);
  }
  return der(0x06, Buffer.from(bytes));
}

function der(tag: number, ...parts: Buffer[]): Buffer {
  const body = Buffer.concat(parts);
  const length: number[] = [];
  for (let n = body.length; n > 0; n >>>= 8) length.unshift(n & 0xff);
  const header = body.length < 0x80 ? [tag, body.length] : [tag, 0x80 | length.length, ...length];
  return Buffer.concat([Buffer.from(header), body]);
}

const TRUE = der(0x01, Buffer.from([0xff]));
const ECDSA_WITH_SHA256 = seq(oid('1.2.840.10045.4.3.2'));
