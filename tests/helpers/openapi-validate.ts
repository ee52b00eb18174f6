/**
 * Checks a live HTTP response against the OpenAPI document: the path matches a path template, the
 * method is documented there, the status is documented for it, required headers are present and
 * documented headers match their schemas, the Content-Type is one the response lists, and a JSON body
 * validates against the response schema (ajv, JSON Schema 2020-12 as OpenAPI 3.1 uses it).
 *
 * An unknown path must be a 404, checked against the `NotFound` component. An undocumented method
 * must be a 405, checked against a 405 the path documents for another method (JSON-RPC on /mcp) or
 * else the `MethodNotAllowed` component; only OPTIONS may also get a bodiless 2xx (CORS preflight).
 * Every problem comes back as one readable line; an empty list means the response conforms.
 *
 *   const check = createOpenApiValidator(document);
 *   const res = await fetch(`${base}/api/reviews/search?rating=5`);
 *   expect(await check.validateFetchResponse('GET', res)).toEqual([]);
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

type OpenApiNode = { [key: string]: unknown };

export type LiveResponse = {
  method: string;
  /** Absolute URL or path (with or without a query string). */
  url: string;
  status: number;
  headers: Headers | Record<string, string>;
  /** The body as received; '' for none. */
  body: string;
};

export type OpenApiValidator = {
  validateResponse(response: LiveResponse): string[];
  /** Reads a clone of the body, so the caller can still consume `response`. */
  validateFetchResponse(method: string, response: Response, url?: string): Promise<string[]>;
};

const DOCUMENT_ID = 'https://openapi.invalid/document.json';
/** A wrong shape repeated over thousands of reviews would otherwise bury the first, useful lines. */
const MAX_BODY_ERRORS = 20;
const OPENAPI_SCHEMA_KEYWORDS = ['example', 'discriminator', 'xml', 'externalDocs'];

export function createOpenApiValidator(document: object): OpenApiValidator {
  const doc = document as OpenApiNode;
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv);
  for (const keyword of OPENAPI_SCHEMA_KEYWORDS) ajv.addKeyword(keyword);
  ajv.addSchema({ ...doc, $id: DOCUMENT_ID }, undefined, undefined, false);
  const compiled = new Map<string, ValidateFunction>();
  const basePath = new URL(((doc['servers'] as OpenApiNode[] | undefined)?.[0]?.['url'] as string) ?? 'http://x/', 'http://x/').pathname.replace(/\/$/, '');

  function compileAt(pointer: string[]): ValidateFunction {
    const fragment = pointer.map((s) => `/${encodeURIComponent(s.replaceAll('~', '~0').replaceAll('/', '~1'))}`).join('');
    let validate = compiled.get(fragment);
    if (!validate) {
      validate = ajv.compile({ $ref: `${DOCUMENT_ID}#${fragment}` });
      compiled.set(fragment, validate);
    }
    return validate;
  }

  /** Follows local `$ref`s, returning the node and the JSON pointer where it lives. */
  function resolve(node: unknown, pointer: string[]): { node: OpenApiNode; pointer: string[] } {
    let current = node as OpenApiNode;
    let at = pointer;
    while (typeof current?.['$ref'] === 'string') {
      at = (current['$ref'] as string).replace(/^#\//, '').split('/').map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'));
      current = at.reduce<unknown>((n, key) => (n as OpenApiNode)?.[key], doc) as OpenApiNode;
    }
    return { node: current, pointer: at };
  }

  function matchPath(pathname: string): string | undefined {
    const paths = Object.keys((doc['paths'] ?? {}) as OpenApiNode);
    if (paths.includes(pathname)) return pathname;
    return paths.find((template) => {
      if (!template.includes('{')) return false;
      const pattern = template.split(/\{[^}]+\}/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[^/]+');
      return new RegExp(`^${pattern}$`).test(pathname);
    });
  }

  function checkAgainst(label: string, response: LiveResponse, responseRef: { node: OpenApiNode; pointer: string[] }): string[] {
    const errors: string[] = [];
    const headers = response.headers instanceof Headers ? response.headers : new Headers(response.headers);
    const { node, pointer } = responseRef;

    for (const [name, raw] of Object.entries((node['headers'] ?? {}) as OpenApiNode)) {
      const header = resolve(raw, [...pointer, 'headers', name]);
      const value = headers.get(name);
      if (value === null) {
        if (header.node['required'] === true) errors.push(`${label}: missing required header ${name}`);
        continue;
      }
      const validate = compileAt([...header.pointer, 'schema']);
      if (!validate(value)) errors.push(`${label}: header ${name}: ${JSON.stringify(value)} ${ajv.errorsText(validate.errors, { dataVar: name })}`);
    }

    const content = node['content'] as OpenApiNode | undefined;
    if (!content || response.method.toUpperCase() === 'HEAD') {
      if (response.body !== '') errors.push(`${label}: expected no body, got ${response.body.length} characters`);
      return errors;
    }
    const contentType = headers.get('content-type');
    const mediaType = contentType?.split(';')[0]!.trim().toLowerCase();
    if (!mediaType || !(mediaType in content)) {
      errors.push(`${label}: Content-Type ${contentType ?? '(none)'} is not one of ${Object.keys(content).join(', ')}`);
      return errors;
    }
    if (!/^application\/(.+\+)?json$/.test(mediaType)) return errors;
    let body: unknown;
    try {
      body = JSON.parse(response.body);
    } catch {
      return [...errors, `${label}: body is not JSON: ${response.body.slice(0, 80)}`];
    }
    const validate = compileAt([...pointer, 'content', mediaType, 'schema']);
    if (!validate(body)) {
      const bodyErrors = validate.errors ?? [];
      for (const e of bodyErrors.slice(0, MAX_BODY_ERRORS)) errors.push(`${label}: body${e.instancePath} ${describeError(e)}`);
      if (bodyErrors.length > MAX_BODY_ERRORS) errors.push(`${label}: … and ${bodyErrors.length - MAX_BODY_ERRORS} more body errors`);
    }
    return errors;
  }

  function validateResponse(response: LiveResponse): string[] {
    const method = response.method.toLowerCase();
    const pathname = new URL(response.url, 'http://x/').pathname;
    const path = basePath && pathname.startsWith(basePath) ? pathname.slice(basePath.length) : pathname;
    const label = `${method.toUpperCase()} ${path} → ${response.status}`;
    const template = matchPath(path);
    if (template === undefined) {
      if (response.status !== 404) return [`${label}: path matches no path of the document, so the status must be 404`];
      return checkAgainst(label, response, resolve({ $ref: '#/components/responses/NotFound' }, []));
    }
    const pathItem = (doc['paths'] as OpenApiNode)[template] as OpenApiNode;
    const operation = pathItem[method] as OpenApiNode | undefined;
    if (!operation) {
      // RFC 9110 §9.3.7: a CORS preflight or OPTIONS probe may be answered with a bodiless 2xx.
      if (method === 'options' && response.status >= 200 && response.status < 300) {
        return response.body === '' ? [] : [`${label}: expected no body on OPTIONS`];
      }
      if (response.status !== 405) return [`${label}: ${method.toUpperCase()} is not documented on ${template}, so the status must be 405`];
      // A path whose declined methods answer in their own shape (JSON-RPC on /mcp) documents that 405.
      const declining = Object.keys(pathItem).find((m) => (pathItem[m] as OpenApiNode)?.['responses'] && '405' in ((pathItem[m] as OpenApiNode)['responses'] as OpenApiNode));
      const expected = declining
        ? resolve(((pathItem[declining] as OpenApiNode)['responses'] as OpenApiNode)['405'], ['paths', template, declining, 'responses', '405'])
        : resolve({ $ref: '#/components/responses/MethodNotAllowed' }, []);
      return checkAgainst(label, response, expected);
    }
    const responses = operation['responses'] as OpenApiNode;
    const status = String(response.status);
    const key = [status, `${status[0]}XX`, 'default'].find((k) => k in responses);
    if (key === undefined) {
      return [`${label}: status not documented for ${method.toUpperCase()} ${template} (documented: ${Object.keys(responses).join(', ')})`];
    }
    return checkAgainst(label, response, resolve(responses[key], ['paths', template, method, 'responses', key]));
  }

  return {
    validateResponse,
    async validateFetchResponse(method, response, url = response.url) {
      const body = await response.clone().text();
      return validateResponse({ method, url, status: response.status, headers: response.headers, body });
    },
  };
}

/** ajv's message, with the value it wanted where the message alone does not say. */
function describeError(e: ErrorObject): string {
  const params = e.params as Record<string, unknown>;
  if (e.keyword === 'additionalProperties') return `must NOT have the additional property ${JSON.stringify(params['additionalProperty'])}`;
  if (e.keyword === 'const') return `must equal ${JSON.stringify(params['allowedValue'])}`;
  if (e.keyword === 'enum') return `must be one of ${JSON.stringify(params['allowedValues'])}`;
  return e.message ?? e.keyword;
}
