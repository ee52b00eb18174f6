/** What kind of image a file is, by its bytes rather than its name (a name can lie). */

/** The extension of an image by its first bytes, or undefined for anything the build does not take. */
export function sniffImageExtension(bytes: Buffer): string | undefined {
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpg';
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP') return 'webp';
  if (bytes.subarray(4, 8).toString('latin1') === 'ftyp' && /^avi[fs]$/.test(bytes.subarray(8, 12).toString('latin1'))) return 'avif';
  return undefined;
}
