/**
 * The OpenAPI document as the API reference page reads it: operations grouped by tag (HEAD folded
 * into its GET), parameters with their `$ref`s resolved, and schemas as rows of properties with
 * readable types. Only reads the document; the document itself is core/openapi's.
 */
type Json = Record<string, any>;

export type ParameterView = { name: string; in: string; required: boolean; type: string; description: string };
export type ResponseView = { status: string; description: string; contentTypes: string[]; schema: string | null };
export type OperationView = {
  id: string;
  method: string;
  alsoHead: boolean;
  path: string;
  summary: string;
  description: string;
  parameters: ParameterView[];
  requestBody: { contentType: string; schema: string | null } | null;
  responses: ResponseView[];
};
export type TagView = { name: string; description: string; operations: OperationView[] };
export type PropertyView = { name: string; type: string; required: boolean; description: string };
export type SchemaView = { name: string; description: string; type: string; properties: PropertyView[] };

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

function resolve(document: Json, value: Json): Json {
  if (typeof value?.$ref !== 'string') return value;
  return value.$ref
    .slice(2)
    .split('/')
    .reduce((node: Json, key: string) => node?.[key], document) as Json;
}

/** A JSON Schema as a short type: `string (date)`, `array of Review`, `integer 1–5`, `string or null`. */
export function describeType(schema: Json | undefined): string {
  if (!schema) return 'any';
  if (typeof schema.$ref === 'string') return schema.$ref.split('/').at(-1)!;
  if ('const' in schema) return `${JSON.stringify(schema.const)}`;
  if (Array.isArray(schema.enum)) return `one of ${schema.enum.map((v: unknown) => JSON.stringify(v)).join(', ')}`;
  const variants = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(variants)) return variants.map(describeType).join(' or ');
  const types: string[] = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  const one = (type: string) => {
    if (type === 'array') return `array of ${describeType(schema.items)}`;
    if (type === 'object' && schema.additionalProperties && typeof schema.additionalProperties === 'object') return `object of ${describeType(schema.additionalProperties)}`;
    let text = type;
    if (schema.format) text += ` (${schema.format})`;
    if (schema.minimum !== undefined && schema.maximum !== undefined) text += ` ${schema.minimum}–${schema.maximum}`;
    return text;
  };
  return types.length === 0 ? 'object' : types.map(one).join(' or ');
}

export function listTags(document: Json): TagView[] {
  const tags: TagView[] = (document.tags ?? []).map((t: Json) => ({ name: t.name, description: t.description ?? '', operations: [] }));
  const byName = new Map(tags.map((t) => [t.name, t]));
  for (const [path, item] of Object.entries<Json>(document.paths ?? {})) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const tag = op.tags?.[0] ?? 'Other';
      if (!byName.has(tag)) {
        const view = { name: tag, description: '', operations: [] };
        byName.set(tag, view);
        tags.push(view);
      }
      const parameters = [...(item.parameters ?? []), ...(op.parameters ?? [])].map((p: Json) => resolve(document, p));
      const body = op.requestBody ? resolve(document, op.requestBody) : null;
      const bodyType = body ? Object.keys(body.content ?? {})[0] : undefined;
      byName.get(tag)!.operations.push({
        id: `${method}-${path.replace(/[^a-zA-Z0-9]+/g, '-').replace(/^-|-$/g, '')}`,
        method: method.toUpperCase(),
        alsoHead: method === 'get' && Boolean(item.head),
        path,
        summary: op.summary ?? '',
        description: op.description ?? '',
        parameters: parameters.map((p) => ({
          name: p.name,
          in: p.in,
          required: Boolean(p.required),
          type: describeType(p.schema),
          description: p.description ?? '',
        })),
        requestBody: body && bodyType ? { contentType: bodyType, schema: body.content[bodyType].schema ? describeType(body.content[bodyType].schema) : null } : null,
        responses: Object.entries<Json>(op.responses ?? {}).map(([status, r]) => {
          const response = resolve(document, r);
          const content = response.content ?? {};
          const first = Object.values<Json>(content)[0];
          return { status, description: response.description ?? '', contentTypes: Object.keys(content), schema: first?.schema ? describeType(first.schema) : null };
        }),
      });
    }
  }
  return tags.filter((t) => t.operations.length > 0);
}

export function listSchemas(document: Json): SchemaView[] {
  return Object.entries<Json>(document.components?.schemas ?? {}).map(([name, schema]) => {
    const required = new Set<string>(schema.required ?? []);
    return {
      name,
      description: schema.description ?? '',
      type: describeType({ ...schema, description: undefined }),
      properties: Object.entries<Json>(schema.properties ?? {}).map(([prop, value]) => ({
        name: prop,
        type: describeType(value),
        required: required.has(prop),
        description: value.description ?? '',
      })),
    };
  });
}

/** The names of component schemas, to link a type such as `array of Review` to its section. */
export function listSchemaNames(document: Json): Set<string> {
  return new Set(Object.keys(document.components?.schemas ?? {}));
}

/** A type string cut into text and schema names, so the page can link each name to its section. */
export function splitTypeNames(type: string, names: ReadonlySet<string>): { text: string; schema: boolean }[] {
  return type.split(/(\b[A-Z][A-Za-z]+\b)/).filter((part) => part !== '').map((part) => ({ text: part, schema: names.has(part) }));
}
