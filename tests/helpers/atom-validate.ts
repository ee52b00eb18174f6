/**
 * Validates an Atom document against RFC 4287's RELAX NG grammar (Appendix B), with libxml2 compiled
 * to WebAssembly (the `xmllint-wasm` npm package): nothing to install, no network.
 *
 * tests/fixtures/atom.rng is the grammar in RELAX NG XML syntax, which libxml2 reads. It was made once
 * from ../shared/schemas/atom.rnc (the compact syntax) with Debian's trang 20220510:
 *   trang -I rnc -O rng ../shared/schemas/atom.rnc tests/fixtures/atom.rng
 * libxml2 skips the grammar's embedded Schematron rules, as jing did.
 */
import { readFile } from 'node:fs/promises';
import { validateXML } from 'xmllint-wasm';

const SCHEMA = new URL('../fixtures/atom.rng', import.meta.url);
let schema: Promise<string> | undefined;

/** Every problem libxml2 finds, one line each (`feed.xml:12: element id: ...`); empty when valid. */
export async function validateAtom(xml: string): Promise<string[]> {
  schema ??= readFile(SCHEMA, 'utf8');
  const result = await validateXML({ xml: [{ fileName: 'feed.xml', contents: xml }], schema: [{ fileName: 'atom.rng', contents: await schema }], extension: 'relaxng' });
  return result.valid ? [] : result.errors.map((error) => error.rawMessage);
}
