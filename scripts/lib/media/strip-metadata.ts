/**
 * Photo originals kept private (issue 29 item 5): a customer's photo carries its GPS location, the
 * camera's owner or the author's name in EXIF, XMP or IPTC, and the content repository may be public.
 * The importer stores every original through `stripPhotoMetadata`, `npm run photos:strip` strips the
 * ones already in the folder, and the build warns about an original that still carries a location or a
 * name (`findPrivateMetadata`).
 *
 * Stripping keeps the pixels as they are, byte for byte, for JPEG, PNG and WebP: only the metadata
 * segments and chunks go (JPEG APP1/APP13/COM and any APPn but JFIF, ICC and Adobe; PNG eXIf and text
 * chunks; WebP EXIF and XMP chunks). The EXIF orientation is kept, as the one tag of a new minimal EXIF
 * block, so a phone's sideways picture still shows upright. The colour profile stays. AVIF has its
 * metadata inside its boxes: it is re-encoded by sharp, upright, without metadata.
 */
import { crc32 } from 'node:zlib';
import sharp, { type Metadata } from 'sharp';
import { sniffImageExtension } from './image-format.ts';

const EXIF_HEADER = Buffer.from('Exif\0\0', 'latin1');

/** The version of `findPrivateMetadata`'s rules: raise it when they change, and kept answers are read again. */
export const PRIVACY_RULES = 1;

/** What an original still says about a person: each finding in words ("a GPS location", "the author name"). */
export async function findPrivateMetadata(bytes: Buffer): Promise<string[]> {
  let meta: Metadata;
  try {
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    return []; // not readable: the build's own check says so
  }
  const found = new Set<string>();
  if (meta.exif) for (const finding of readExifFindings(meta.exif)) found.add(finding);
  const xmp = meta.xmp?.toString('utf8') ?? '';
  if (/GPSLatitude|GPSLongitude/.test(xmp)) found.add('a GPS location');
  if (/dc:creator|photoshop:Credit|xmpRights:Owner|aux:OwnerName/.test(xmp)) found.add('a name');
  if (meta.iptc && meta.iptc.length > 0) found.add('IPTC data (names, places)');
  return [...found];
}

/** The tags of an EXIF block (TIFF layout, after "Exif\0\0") that hold a place or a person. */
function readExifFindings(exif: Buffer): string[] {
  const tiff = exif.subarray(0, 6).equals(EXIF_HEADER) ? exif.subarray(6) : exif;
  if (tiff.length < 8) return [];
  const little = tiff.toString('latin1', 0, 2) === 'II';
  const u16 = (at: number) => (little ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at));
  const u32 = (at: number) => (little ? tiff.readUInt32LE(at) : tiff.readUInt32BE(at));
  const found: string[] = [];
  const visit = (offset: number, depth: number) => {
    if (depth > 2 || offset + 2 > tiff.length) return;
    const count = u16(offset);
    for (let i = 0; i < count; i++) {
      const entry = offset + 2 + i * 12;
      if (entry + 12 > tiff.length) return;
      const tag = u16(entry);
      if (tag === 0x8825) found.push('a GPS location');
      // Artist, Copyright, XPAuthor, CameraOwnerName
      if (tag === 0x013b || tag === 0x8298 || tag === 0x9c9d || tag === 0xa430) found.push('a name');
      if (tag === 0x8769) visit(u32(entry + 8), depth + 1); // the Exif IFD holds CameraOwnerName
    }
  };
  try {
    visit(u32(4), 0);
  } catch {
    // a damaged block: whatever was read is reported
  }
  return found;
}

/** The photo without its metadata, orientation kept; the bytes as they were when there is nothing to strip. */
export async function stripPhotoMetadata(bytes: Buffer): Promise<Buffer> {
  const format = sniffImageExtension(bytes);
  const orientation = await readOrientation(bytes);
  try {
    if (format === 'jpg') return stripJpeg(bytes, orientation);
    if (format === 'png') return stripPng(bytes, orientation);
    if (format === 'webp') return stripWebp(bytes);
  } catch {
    // A structure that does not parse: the decoder's copy below carries no metadata either.
  }
  return sharp(bytes, { limitInputPixels: false }).autoOrient().keepIccProfile().toBuffer();
}

async function readOrientation(bytes: Buffer): Promise<number> {
  try {
    return (await sharp(bytes, { limitInputPixels: false }).metadata()).orientation ?? 1;
  } catch {
    return 1;
  }
}

/** A minimal EXIF block: IFD0 with the Orientation tag alone. */
function orientationExif(orientation: number): Buffer {
  const tiff = Buffer.alloc(26);
  tiff.write('MM\0*', 0, 'latin1');
  tiff.writeUInt32BE(8, 4);
  tiff.writeUInt16BE(1, 8); // one entry
  tiff.writeUInt16BE(0x0112, 10); // Orientation
  tiff.writeUInt16BE(3, 12); // SHORT
  tiff.writeUInt32BE(1, 14);
  tiff.writeUInt16BE(orientation, 18);
  tiff.writeUInt32BE(0, 22); // no next IFD
  return Buffer.concat([EXIF_HEADER, tiff]);
}

/** JPEG: the segments before the scan, keeping JFIF (APP0), ICC (APP2 "ICC_PROFILE") and Adobe (APP14). */
function stripJpeg(bytes: Buffer, orientation: number): Buffer {
  const parts: Buffer[] = [bytes.subarray(0, 2)];
  let at = 2;
  let inserted = orientation === 1;
  for (;;) {
    if (bytes[at] !== 0xff) throw new Error('not a JPEG marker');
    const marker = bytes[at + 1]!;
    // Start of scan: the rest is image data (and what follows it), kept as it is.
    if (marker === 0xda) break;
    const length = bytes.readUInt16BE(at + 2);
    const segment = bytes.subarray(at, at + 2 + length);
    const isApp = marker >= 0xe0 && marker <= 0xef;
    const keep = !isApp ? marker !== 0xfe : marker === 0xe0 || marker === 0xee || (marker === 0xe2 && segment.subarray(4, 16).toString('latin1') === 'ICC_PROFILE\0');
    if (!inserted && !(isApp && marker === 0xe0)) {
      const exif = orientationExif(orientation);
      const header = Buffer.from([0xff, 0xe1, 0, 0]);
      header.writeUInt16BE(exif.length + 2, 2);
      parts.push(header, exif);
      inserted = true;
    }
    if (keep) parts.push(segment);
    at += 2 + length;
  }
  parts.push(bytes.subarray(at));
  return Buffer.concat(parts);
}

const PNG_DROP = new Set(['eXIf', 'tEXt', 'zTXt', 'iTXt', 'tIME']);

/** PNG: every chunk but eXIf and the text chunks (where XMP lives); a minimal eXIf for the orientation. */
function stripPng(bytes: Buffer, orientation: number): Buffer {
  const parts: Buffer[] = [bytes.subarray(0, 8)];
  let at = 8;
  while (at + 8 <= bytes.length) {
    const length = bytes.readUInt32BE(at);
    const type = bytes.toString('latin1', at + 4, at + 8);
    const chunk = bytes.subarray(at, at + 12 + length);
    if (!PNG_DROP.has(type)) parts.push(chunk);
    if (type === 'IHDR' && orientation !== 1) parts.push(pngChunk('eXIf', orientationExif(orientation).subarray(EXIF_HEADER.length)));
    at += 12 + length;
    if (type === 'IEND') break;
  }
  return Buffer.concat(parts);
}

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])));
  return Buffer.concat([head, data, crc]);
}

/** WebP: the RIFF chunks but EXIF and XMP, with their flags cleared in VP8X. Orientation: WebP has none. */
function stripWebp(bytes: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 12;
  while (at + 8 <= bytes.length) {
    const type = bytes.toString('latin1', at, at + 4);
    const size = bytes.readUInt32LE(at + 4);
    const chunk = Buffer.from(bytes.subarray(at, at + 8 + size + (size % 2)));
    // VP8X flags: bit 3 EXIF, bit 2 XMP.
    if (type === 'VP8X') chunk[8] = chunk[8]! & ~0x0c;
    if (type !== 'EXIF' && type !== 'XMP ') parts.push(chunk);
    at += 8 + size + (size % 2);
  }
  const body = Buffer.concat(parts);
  const head = Buffer.alloc(12);
  head.write('RIFF', 0, 'latin1');
  head.writeUInt32LE(body.length + 4, 4);
  head.write('WEBP', 8, 'latin1');
  return Buffer.concat([head, body]);
}
