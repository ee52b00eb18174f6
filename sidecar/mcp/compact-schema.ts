/**
 * Makes a tool's JSON Schema cheaper for an agent's context (issue 20: `tools/list` at most 12 KB)
 * without changing what it accepts in practice: a date keeps `format: date` and loses zod's
 * 330-character leap-year pattern, integers lose JavaScript's MAX_SAFE_INTEGER as a maximum, and
 * examples and the `$schema` line (draft-07, as the SDK assumes) go. In an output schema, descriptions
 * are kept only on the answer's fields that steer the next call (`next_cursor`, `more`, `message`):
 * what the others hold (a count, a review, an aspect) is described once, in the OpenAPI document, and
 * the tool list keeps a kilobyte of its budget free (issue 29); output schemas also drop their bounds, `required` and `additionalProperties:
 * false` (our own answers, always complete). A sub-schema written
 * twice is written once, under `definitions`. Below the answer's own fields and their items, an object
 * is declared as an object: its shape (a review, an aspect profile) is the one /reviews.json and
 * /insights.json publish, described field by field in the OpenAPI document.
 */
const MAX_SAFE = Number.MAX_SAFE_INTEGER;
const OUTPUT_ONLY_CHECKS = new Set(['required', 'minimum', 'maximum', 'minLength', 'maxLength', 'additionalProperties']);

export function compactJsonSchema<T>(schema: T, io: 'input' | 'output'): T {
  return inlineRootReference(dropUnusedDefinitions(shareRepeats(strip(schema, io === 'output' ? 0 : -Infinity) as Record<string, unknown>))) as T;
}

/**
 * An answer whose schema has an OpenAPI name (`Changes`, `TechnicianRanking`) comes out of zod as a
 * `$ref` to its one definition: written in place, it costs fifty bytes less.
 */
function inlineRootReference(root: Record<string, unknown>): Record<string, unknown> {
  const { $ref, type, definitions, ...rest } = root as { $ref?: unknown; type?: unknown; definitions?: Record<string, unknown> };
  if (typeof $ref !== 'string' || !$ref.startsWith('#/definitions/') || definitions === undefined || Object.keys(rest).length > 0) return root;
  const name = $ref.slice('#/definitions/'.length);
  const target = definitions[name] as Record<string, unknown> | undefined;
  const others = Object.fromEntries(Object.entries(definitions).filter(([key]) => key !== name));
  if (target === undefined || type !== target.type || JSON.stringify(others).includes(`"${$ref}"`) || JSON.stringify(target).includes(`"${$ref}"`)) return root;
  return Object.keys(others).length === 0 ? target : { ...target, definitions: others };
}

/** Output depth from which an object is declared as just an object (a review in a list, a profile). */
const OUTPUT_DETAIL_DEPTH = 3;

/** Keeps the definitions still referenced, directly or through one another. */
function dropUnusedDefinitions(root: Record<string, unknown>): Record<string, unknown> {
  const { definitions, ...rest } = root as { definitions?: Record<string, unknown> };
  if (definitions === undefined) return root;
  const used = new Set<string>();
  const visit = (node: unknown): void => {
    if (node === null || typeof node !== 'object') return;
    const ref = (node as { $ref?: unknown }).$ref;
    if (typeof ref === 'string' && ref.startsWith('#/definitions/')) {
      const name = ref.slice('#/definitions/'.length);
      if (!used.has(name)) {
        used.add(name);
        visit(definitions[name]);
      }
    }
    for (const child of Object.values(node)) visit(child);
  };
  visit(rest);
  const kept = Object.fromEntries(Object.entries(definitions).filter(([name]) => used.has(name)));
  return Object.keys(kept).length === 0 ? rest : { ...rest, definitions: kept };
}

/** Sub-schemas shorter than this are cheaper written out than referenced. */
const MIN_SHARED_LENGTH = 100;

/**
 * Writes a sub-schema that occurs more than once (a rating distribution, a reply) once under
 * `definitions`, named after the property it first describes, and points at it with `$ref`.
 */
function shareRepeats(root: Record<string, unknown>): Record<string, unknown> {
  const counts = new Map<string, number>();
  const count = (node: unknown, top: boolean): void => {
    if (node === null || typeof node !== 'object') return;
    if (!top && !Array.isArray(node)) {
      const text = JSON.stringify(node);
      if (text.length >= MIN_SHARED_LENGTH) counts.set(text, (counts.get(text) ?? 0) + 1);
    }
    for (const child of Object.values(node)) count(child, false);
  };
  count(root, true);
  const definitions: Record<string, unknown> = { ...(root.definitions as Record<string, unknown> | undefined) };
  const names = new Map<string, string>();
  const replace = (node: unknown, key: string): unknown => {
    if (node === null || typeof node !== 'object') return node;
    if (Array.isArray(node)) return node.map((item) => replace(item, key));
    const text = JSON.stringify(node);
    if ((counts.get(text) ?? 0) > 1) {
      let name = names.get(text);
      if (name === undefined) {
        name = key in definitions ? `${key}${names.size}` : key;
        names.set(text, name);
        definitions[name] = node;
      }
      return { $ref: `#/definitions/${name}` };
    }
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, replace(v, k === 'items' || k === 'anyOf' ? key : k)]));
  };
  const shared = replace(root, '') as Record<string, unknown>;
  return Object.keys(definitions).length === 0 ? shared : { ...shared, definitions };
}

/** The answer's fields whose description an agent needs to make its next call. */
const GUIDING_FIELDS = new Set(['next_cursor', 'next_token', 'more', 'message']);

/**
 * `depth`: how deep inside an output schema's properties; descriptions go below the first level, and at
 * the first level but on GUIDING_FIELDS. `field`: the property this node describes.
 */
function strip(node: unknown, depth: number, inProperties = false, field?: string): unknown {
  if (Array.isArray(node)) return node.map((item) => strip(item, depth));
  if (node === null || typeof node !== 'object') return node;
  const record = node as Record<string, unknown>;
  if (depth >= OUTPUT_DETAIL_DEPTH && !inProperties && ('properties' in record || '$ref' in record)) return { type: 'object' };
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) {
    // Keys of `properties` are field names, whatever they are called.
    if (inProperties) {
      out[key] = strip(value, depth, false, key);
      continue;
    }
    if (key === '$schema' || key === 'example' || key === 'examples') continue;
    if (key === 'pattern' && typeof record.format === 'string') continue;
    // Every JSON object key is a string: zod's `propertyNames` of a string-keyed record says nothing.
    if (key === 'propertyNames' && JSON.stringify(value) === '{"type":"string"}') continue;
    if (key === 'maximum' && value === MAX_SAFE) continue;
    if (key === 'minimum' && value === -MAX_SAFE) continue;
    if (key === 'description' && (depth > 1 || (depth === 1 && !GUIDING_FIELDS.has(field ?? '')))) continue;
    // Output is ours and always exact: its bounds, "every field is present" and "no other properties"
    // tell an agent nothing it will not see in the answer.
    if (depth >= 0 && OUTPUT_ONLY_CHECKS.has(key) && (key !== 'additionalProperties' || value === false)) continue;
    out[key] = strip(value, key === 'properties' ? depth + 1 : key === 'definitions' || key === 'items' ? depth + 2 : key === 'anyOf' ? depth + 1 : depth, key === 'properties' || key === 'definitions');
  }
  return depth >= 0 ? mergeAlternatives(out) : out;
}

/**
 * In an output schema, the same type written shorter: "a date or null" (`anyOf` of a plain type and
 * `null`) as one type list, `"type": ["string", "null"]` beside the format, and an `allOf` of one schema
 * as that schema.
 */
function mergeAlternatives(node: Record<string, unknown>): Record<string, unknown> {
  const { anyOf, allOf, ...rest } = node as { anyOf?: unknown; allOf?: unknown };
  if (Array.isArray(allOf) && allOf.length === 1 && anyOf === undefined && 'type' in (allOf[0] as object) && !('type' in rest)) return { ...rest, ...(allOf[0] as object) };
  if (!Array.isArray(anyOf) || anyOf.length !== 2 || 'type' in rest) return node;
  const isNull = (s: unknown) => JSON.stringify(s) === '{"type":"null"}';
  const other = (isNull(anyOf[1]) ? anyOf[0] : isNull(anyOf[0]) ? anyOf[1] : undefined) as Record<string, unknown> | undefined;
  if (other === undefined || typeof other.type !== 'string' || Object.keys(other).some((k) => k !== 'type' && k !== 'format')) return node;
  return { ...rest, ...other, type: [other.type, 'null'] };
}
