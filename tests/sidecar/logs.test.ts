/**
 * One log vocabulary (sidecar/logger.ts): snake_case event names, documented in docs/operations.md, one JSON
 * object a line. That the code logs only these names is checked by the type `LogEvent`.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { createLogger, LOG_EVENTS } from '../../sidecar/logger.ts';

const names = Object.keys(LOG_EVENTS);

describe('LOG_EVENTS', () => {
  it('names every event in snake_case', () => {
    expect(names.length).toBeGreaterThan(10);
    expect(names.filter((n) => !/^[a-z]+(_[a-z]+)*$/.test(n))).toEqual([]);
  });

  it('is the list docs/operations.md documents under "Logs", no more and no less', async () => {
    const doc = await readFile('docs/operations.md', 'utf8');
    const section = doc.slice(doc.indexOf('## Logs'), doc.indexOf('\n## ', doc.indexOf('## Logs')));
    const documented = [...section.matchAll(/^\| `([a-z_]+)` \|/gm)].map((m) => m[1]);
    expect(documented).toEqual(names);
  });
});

describe('createLogger', () => {
  it('writes one JSON object a line, with time, level and event first, at or above its level', () => {
    const lines: string[] = [];
    const log = createLogger('warn', (line) => lines.push(line));
    log.info('build_swapped', { from: 'a', to: 'b' });
    log.warn('build_reload_failed', { error: 'missing manifest' });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^\{"time":"[^"]+","level":"warn","event":"build_reload_failed","error":"missing manifest"\}\n$/);
  });
});
