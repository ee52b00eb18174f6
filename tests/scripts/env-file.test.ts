/**
 * Configuration in one place: `.env.example` lists every variable of the configuration schema with
 * its real default, and the commands read a settings file (the project's `.env`, or ENV_FILE), with
 * the process environment winning.
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EnvSchema, parseConfig } from '../../core/config.ts';
import { runScript } from '../helpers/run-script.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** `# NAME=value` lines: the documented settings, all commented out so a copied file changes nothing. */
async function readExample(): Promise<[string, string][]> {
  const text = await readFile(path.join(ROOT, '.env.example'), 'utf8');
  return [...text.matchAll(/^# ([A-Z][A-Z0-9_]*)=(.*)$/gm)].map((m) => [m[1]!, m[2]!]);
}

describe('.env.example', () => {
  it('lists every variable of the configuration schema once, and nothing else', async () => {
    const names = (await readExample()).map(([name]) => name);
    expect(names.length).toBeGreaterThan(10);
    expect([...names].sort()).toEqual(Object.keys(EnvSchema.shape).sort());
  });

  it('gives each variable its real default: the documented value configures exactly what leaving it unset does', async () => {
    const unset = parseConfig({});
    expect(unset.ok).toBe(true);
    for (const [name, value] of await readExample()) {
      if (value === '') {
        // Documented as unset: the schema has no default for it.
        expect(EnvSchema.shape[name as keyof typeof EnvSchema.shape].safeParse(undefined), name).toMatchObject({ success: true, data: undefined });
        continue;
      }
      expect(parseConfig({ [name]: value }), `${name}=${value}`).toEqual(unset);
    }
  });

  it('is all comments, so copying it to .env changes nothing', async () => {
    const text = await readFile(path.join(ROOT, '.env.example'), 'utf8');
    expect(text.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('#'))).toEqual([]);
  });
});

describe('the settings file', () => {
  const hooksInstall = (env: NodeJS.ProcessEnv) => runScript(process.execPath, ['scripts/hooks/install.ts'], { cwd: ROOT, env });
  // hooks:install is the lightest command that reads the configuration: it names CONTENT_DIR when it is not in a git repository.
  const outsideGit = async () => path.join(await mkdtemp(path.join(tmpdir(), 'env-file-')), 'no-repo');

  it('is read by the commands, and a variable of the process environment wins over it', async () => {
    const [fromFile, fromShell] = [await outsideGit(), await outsideGit()];
    const file = path.join(path.dirname(fromFile), 'settings.env');
    await writeFile(file, `# owner settings\nCONTENT_DIR=${fromFile}\n`);
    const env = { ...process.env, CONTENT_DIR: undefined, ENV_FILE: file };

    const read = await hooksInstall(env);
    expect(read.code).toBe(1);
    expect(read.stderr).toContain(`${fromFile} is not inside a git repository`);

    const overridden = await hooksInstall({ ...env, CONTENT_DIR: fromShell });
    expect(overridden.stderr).toContain(`${fromShell} is not inside a git repository`);
  }, 60_000);

  it('refuses invalid values from the file with one line naming the variable', async () => {
    const file = path.join(await mkdtemp(path.join(tmpdir(), 'env-file-')), 'settings.env');
    await writeFile(file, 'PORT=http\n');
    const run = await hooksInstall({ ...process.env, PORT: undefined, ENV_FILE: file });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^Invalid configuration:\n {2}- PORT: /);
  });

  it('stops with one line when ENV_FILE names no file', async () => {
    const missing = path.join(await mkdtemp(path.join(tmpdir(), 'env-file-')), 'missing.env');
    const run = await hooksInstall({ ...process.env, ENV_FILE: missing });
    expect(run.code).toBe(1);
    expect(run.stderr.trim()).toBe(`ENV_FILE: ${missing} does not exist`);
  });
});
