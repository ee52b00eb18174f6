/**
 * Parses a hub request (WebSub §5.1 subscribe/unsubscribe, and the `hub.mode=publish` ping of
 * CONTRACT.md) from its form fields, reporting every problem together. Pure: the SSRF check of the
 * callback's addresses needs DNS and happens in the hub.
 *
 * - `hub.callback` must be an absolute HTTPS URL without credentials; its query string is kept.
 * - `hub.topic` (and `hub.url` for publish) must be one of the hub's topic URLs, exactly.
 * - `hub.lease_seconds`, when given, is a positive whole number; the granted lease is clamped into the
 *   configured bounds (§5.1: the hub decides the lease). Absent, the default lease is granted.
 * - `hub.secret` is at most 200 bytes; an empty one means no secret.
 * - Unknown `hub.*` and other parameters are ignored (§5.1). A field given twice is refused, except
 *   `hub.url` in a publish ping, which may name several topics.
 */
import { z } from 'zod';
import type { ErrorIssue } from '../../../core/schemas/errors.ts';
import { parseWithIssues } from '../../../core/schemas/issues.ts';

export type LeaseBounds = { defaultSeconds: number; minSeconds: number; maxSeconds: number };

export type HubRequest =
  | { mode: 'subscribe'; callback: string; topic: string; leaseSeconds: number; secret: string | null }
  | { mode: 'unsubscribe'; callback: string; topic: string }
  | { mode: 'publish'; topics: string[] };

export type HubRequestResult = { ok: true; request: HubRequest } | { ok: false; issues: ErrorIssue[] };

export const MAX_SECRET_BYTES = 200;
export const MAX_CALLBACK_LENGTH = 2048;

export function createHubRequestSchema(topicUrls: () => readonly string[], lease: LeaseBounds, indexUrl?: string) {
  const once = (field: string) =>
    z.string({
      error: (issue) => (issue.input === undefined ? `${field} is required` : `${field} must be given once`),
    });
  const topic = (field: string) =>
    once(field).superRefine((t, ctx) => {
      const known = topicUrls();
      if (known.includes(t)) return;
      // The seed topics by name; the slice feeds (possibly hundreds) by where they are listed.
      const seeds = known.slice(0, 3).join(', ');
      const more = indexUrl === undefined ? '' : `, or a feed listed in ${indexUrl}`;
      ctx.addIssue({ code: 'custom', message: `${field} must be one of the hub's topics: ${seeds}${more}` });
    });
  const callback = once('hub.callback')
    .max(MAX_CALLBACK_LENGTH, `hub.callback must be at most ${MAX_CALLBACK_LENGTH} characters`)
    .superRefine((value, ctx) => {
      const url = URL.parse(value);
      if (!url) ctx.addIssue({ code: 'custom', message: 'hub.callback must be an absolute URL' });
      else if (url.protocol !== 'https:') ctx.addIssue({ code: 'custom', message: 'hub.callback must be an HTTPS URL' });
      else if (url.username || url.password) ctx.addIssue({ code: 'custom', message: 'hub.callback must not contain credentials' });
    });
  // Any length of digits: a lease past the maximum is clamped like any other (§5.1), not refused.
  const leaseSeconds = once('hub.lease_seconds')
    .regex(/^[0-9]+$/, 'hub.lease_seconds must be a whole number of seconds')
    .transform(Number)
    .refine((n) => n > 0, 'hub.lease_seconds must be positive')
    .optional()
    .transform((n) => Math.min(lease.maxSeconds, Math.max(lease.minSeconds, n ?? lease.defaultSeconds)));
  const secret = once('hub.secret')
    .refine((s) => Buffer.byteLength(s, 'utf8') <= MAX_SECRET_BYTES, `hub.secret must be at most ${MAX_SECRET_BYTES} bytes`)
    .optional()
    .transform((s) => (s ? s : null));

  const subscribe = z.object({
    'hub.mode': z.literal('subscribe'),
    'hub.callback': callback,
    'hub.topic': topic('hub.topic'),
    'hub.lease_seconds': leaseSeconds,
    'hub.secret': secret,
  });
  const unsubscribe = z.object({ 'hub.mode': z.literal('unsubscribe'), 'hub.callback': callback, 'hub.topic': topic('hub.topic') });
  const publish = z
    .object({
      'hub.mode': z.literal('publish'),
      'hub.url': z.array(topic('hub.url')).optional(),
      'hub.topic': topic('hub.topic').optional(),
    })
    .refine((p) => (p['hub.url']?.length ?? 0) > 0 || p['hub.topic'] !== undefined, {
      message: 'a publish ping needs hub.url (or hub.topic) naming a topic',
      path: ['hub.url'],
    });
  return z.discriminatedUnion('hub.mode', [subscribe, unsubscribe, publish], {
    error: (issue) =>
      issue.input === undefined ? 'hub.mode is required' : 'hub.mode must be subscribe, unsubscribe or publish',
  });
}

export type HubRequestSchema = ReturnType<typeof createHubRequestSchema>;

/** Form fields as the schema reads them: one string each, an array when repeated (hub.url always an array). */
export function collectFormFields(form: URLSearchParams): Record<string, string | string[]> {
  const fields: Record<string, string | string[]> = {};
  for (const key of new Set(form.keys())) {
    const values = form.getAll(key);
    fields[key] = key === 'hub.url' || values.length > 1 ? values : values[0]!;
  }
  return fields;
}

export function parseHubRequest(schema: HubRequestSchema, form: URLSearchParams): HubRequestResult {
  const fields = collectFormFields(form);
  // The union is chosen by hub.mode, so a repeated one would otherwise read as an unknown mode.
  if (Array.isArray(fields['hub.mode'])) {
    return { ok: false, issues: [{ path: ['hub.mode'], message: 'hub.mode must be given once', code: 'invalid_type' }] };
  }
  const parsed = parseWithIssues(schema, fields);
  if (!parsed.ok) return { ok: false, issues: parsed.issues.map((i) => ({ ...i, path: [String(i.path[0] ?? 'hub.mode')] })) };
  const p = parsed.value;
  switch (p['hub.mode']) {
    case 'subscribe':
      return {
        ok: true,
        request: { mode: 'subscribe', callback: p['hub.callback'], topic: p['hub.topic'], leaseSeconds: p['hub.lease_seconds'], secret: p['hub.secret'] },
      };
    case 'unsubscribe':
      return { ok: true, request: { mode: 'unsubscribe', callback: p['hub.callback'], topic: p['hub.topic'] } };
    case 'publish': {
      const topics = [...(p['hub.url'] ?? []), ...(p['hub.topic'] === undefined ? [] : [p['hub.topic']])];
      return { ok: true, request: { mode: 'publish', topics: [...new Set(topics)] } };
    }
  }
}
