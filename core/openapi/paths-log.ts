/**
 * The review log (docs/log.md): its static files under /log/ (C2SP tlog-checkpoint and tlog-tiles),
 * served like every static file, and the sidecar's witness of other instances' logs (C2SP tlog-witness,
 * sidecar/witness/witness-router.ts), which answers in the protocol's own text forms.
 */
import { PATHS } from '../urls.ts';
import { ref, type OpenApiObject } from './http-components.ts';
import { buildReadOperations } from './read-operations.ts';

const TAG = 'Review log';

const TILE_INDEX = {
  name: 'index',
  in: 'path',
  required: true,
  schema: { type: 'string', pattern: '^[0-9]{3}$' },
  description:
    'The tile index in three digits (`000`, `041`). tlog-tiles writes an index of 1,000 or more in groups of three, each but the last prefixed by `x` (`x001/234`), a path OpenAPI cannot template; those tiles are served the same way.',
};
const TILE_WIDTH = {
  name: 'width',
  in: 'path',
  required: true,
  schema: { type: 'string', pattern: '^[1-9][0-9]{0,2}$' },
  description: 'A partial tile: how many of its 256 hashes or entries exist (1 to 255).',
};
const TILE_LEVEL = {
  name: 'level',
  in: 'path',
  required: true,
  schema: { type: 'string', pattern: '^(entries|[0-9]|[1-5][0-9]|6[0-3])$' },
  description: '`0` to `63`: a hash tile of that level (level L holds the hashes of tree level 8·L); `entries`: an entry bundle.',
};
const TILE_DESCRIPTION =
  'A hash tile (`tile/<L>/<N>`, 256 hashes of 32 bytes) or an entry bundle (`tile/entries/<N>`: each entry as a big-endian uint16 length, then its compact JSON: `action`, `review_id`, `time`, `date`, `rating`, then `digest` or `reason`), as C2SP tlog-tiles describes them. A tile never changes once written, so it is cached as immutable; only the last tile of a level is partial, and a partial tile keeps its own path when the log grows.';
const binary = { type: 'string', contentMediaType: 'application/octet-stream', description: 'The tile\'s bytes.' };
const notFound = { '404': ref('responses', 'NotFound') };

const witnessError = (description: string): OpenApiObject => ({ description, content: { 'application/json': { schema: ref('schemas', 'Error') } } });
const plainText = (description: string, schema: OpenApiObject = { type: 'string' }): OpenApiObject => ({
  description,
  headers: { 'Cache-Control': { description: '`no-store`.', schema: { type: 'string', const: 'no-store' } } },
  content: { 'text/plain': { schema } },
});

const WITNESS_DESCRIPTION = [
  'C2SP tlog-witness `add-checkpoint`: another instance (its `LOG_WITNESSES` lists this one) asks this sidecar to cosign its review log\'s new checkpoint. Offered only when `WITNESS_LOGS` names the logs this sidecar witnesses; otherwise the path is 404.',
  'The body is `old <size>` (the size of the last checkpoint this witness cosigned for that log, 0 the first time), up to 63 base64 consistency-proof hashes, one a line, an empty line, then the signed checkpoint. Any `Content-Type` is read as UTF-8 text; at most 16 KiB.',
  'The witness cosigns only a checkpoint signed by a log it knows that extends the latest one it cosigned for that origin, and records it before answering; requests are judged one at a time.',
].join('\n\n');

const VKEY_PATTERN = '^[^+\\s]+\\+[0-9a-f]{8}\\+[A-Za-z0-9+/]+=*\\n$';

const witnessVkey = (method: 'get' | 'head'): OpenApiObject => ({
  operationId: `${method}WitnessVerifierKey`,
  tags: [TAG],
  summary: method === 'get' ? 'This witness\'s cosigner key' : 'This witness\'s cosigner key (headers only)',
  description:
    'One line, `<name>+<key id>+<base64 key>` (name: `PUBLIC_URL` without its scheme, then `/witness`), as another instance lists it in `LOG_WITNESSES`. 404 when this sidecar is no witness (no `WITNESS_LOGS`).',
  responses: {
    '200': method === 'get' ? { description: 'The key, one line.', content: { 'text/plain': { schema: { type: 'string', pattern: VKEY_PATTERN } } } } : { description: 'OK, no body.' },
    '404': ref('responses', 'NotFound'),
  },
});

export function buildLogPaths(): Record<string, OpenApiObject> {
  const read = buildReadOperations;
  const tileParameters = [TILE_LEVEL, TILE_INDEX];
  return {
    [PATHS.logCheckpoint]: read({
      name: 'LogCheckpoint',
      tag: TAG,
      summary: 'The review log\'s signed tree head',
      description:
        'C2SP tlog-checkpoint as a signed note: the origin (`PUBLIC_URL` without its scheme, then `/log`), the number of entries and the base64 root hash, each on its own line; an empty line; then the log\'s Ed25519 signature line (`— <origin> <base64>`) and any witnesses\' cosignature lines. Cached 5 seconds. A WebSub topic: subscribe at `/api/websub/hub` to be sent each new checkpoint.',
      mediaType: 'text/plain',
      schema: { type: 'string', pattern: '^[^\n]+\n(0|[1-9][0-9]*)\n[A-Za-z0-9+/]{43}=\n' },
      topic: true,
    }),
    [PATHS.logVkey]: read({
      name: 'LogVerifierKey',
      tag: TAG,
      summary: 'The review log\'s verifier key',
      description: 'One line, `<origin>+<key id>+<base64 key>` (the signed-note verifier key form of Go\'s `golang.org/x/mod/sumdb/note`), with which the checkpoint\'s signature is checked. Owners publish it somewhere they control too (docs/log.md): a key read from the log itself proves nothing on its own.',
      mediaType: 'text/plain',
      schema: { type: 'string', pattern: VKEY_PATTERN },
    }),
    [`${PATHS.logProofPrefix}{id}.tlog-proof`]: read({
      name: 'LogReviewProof',
      tag: TAG,
      summary: 'One review\'s proof that it is in the log',
      description:
        'C2SP tlog-proof of the review\'s latest entry against the current checkpoint (its cosignatures included), written by each build: `c2sp.org/tlog-proof@v1`, an `extra` line (base64 of `{"entry":"<the entry\'s text>","review":<the review\'s digest fields>}`), `index <n>`, the inclusion proof\'s base64 hashes, an empty line, then the checkpoint. A reader computes the leaf from the review (docs/verification.md "A proof for every review"). MCP `get_review` and each review of /api/reviews/search and /api/reviews/since/{date} give this URL as `log_entry.proof_url`. 404 for a review not served (never published, or withdrawn).',
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string', pattern: '^[a-z0-9-]+$' }, description: 'The review\'s id.' }],
      mediaType: 'text/plain',
      schema: { type: 'string', pattern: '^c2sp\\.org/tlog-proof@v1\n' },
      errors: notFound,
    }),
    [`${PATHS.logPrefix}tile/{level}/{index}`]: read({
      name: 'LogTile',
      tag: TAG,
      summary: 'A full tile of the review log',
      description: TILE_DESCRIPTION,
      parameters: tileParameters,
      mediaType: 'application/octet-stream',
      schema: binary,
      errors: notFound,
    }),
    [`${PATHS.logPrefix}tile/{level}/{index}.p/{width}`]: read({
      name: 'LogPartialTile',
      tag: TAG,
      summary: 'A partial tile of the review log',
      description: TILE_DESCRIPTION,
      parameters: [...tileParameters, TILE_WIDTH],
      mediaType: 'application/octet-stream',
      schema: binary,
      errors: notFound,
    }),
    [PATHS.witnessAddCheckpoint]: {
      post: {
        operationId: 'postWitnessAddCheckpoint',
        tags: [TAG],
        summary: 'Ask this witness to cosign a checkpoint',
        description: WITNESS_DESCRIPTION,
        requestBody: { required: true, content: { 'text/plain': { schema: { type: 'string', maxLength: 16_384 } } } },
        responses: {
          '200': plainText('Cosigned: the witness\'s cosignature line (C2SP tlog-cosignature, `— <witness name> <base64>`), to add to the checkpoint\'s signatures.'),
          '400': witnessError('The body is not an add-checkpoint request, or `old` is larger than the checkpoint\'s size.'),
          '403': witnessError('The checkpoint carries no signature by the key this witness knows for its origin, or that signature fails.'),
          '404': witnessError('This witness does not witness that origin, or this sidecar is no witness (no `WITNESS_LOGS`).'),
          '409': {
            description: '`old` is not the size of the latest checkpoint this witness cosigned for that origin: the body is that size, so the log can send the proof from it.',
            headers: { 'Cache-Control': { description: '`no-store`.', schema: { type: 'string', const: 'no-store' } } },
            content: { 'text/x.tlog.size': { schema: { type: 'string', pattern: '^(0|[1-9][0-9]*)\\n$' } } },
          },
          '413': witnessError('The body is larger than 16 KiB.'),
          '422': plainText('A proof sent with `old 0`, a checkpoint of the size it holds with another root, a size-0 checkpoint without the empty tree\'s root, or a consistency proof that does not show the checkpoint extends the one this witness cosigned: the reason, in one line.'),
          '429': witnessError('Too many witness requests from this address (`WITNESS_RATE_LIMIT`).'),
          '503': witnessError('The witness cannot read its state (it cosigns nothing until its operator acts), or could not record the checkpoint.'),
        },
      },
    },
    [PATHS.witnessVkey]: {
      get: witnessVkey('get'),
      head: witnessVkey('head'),
    },
    [PATHS.logPolicy]: read({
      name: 'LogPolicy',
      tag: TAG,
      summary: 'The site\'s own trust policy for its log',
      description:
        'C2SP tlog-policy: a `log` line (the log\'s verifier key), a `witness <name> <vkey> <url>` line for each witness a publish asks (`LOG_WITNESSES`), and the quorum: a group of a majority of them, or `quorum none` without witnesses. `npm run verify -- <url> --policy <file or url>` reads it; readers should prefer a policy of their own (docs/verification.md).',
      mediaType: 'text/plain',
      schema: { type: 'string' },
    }),
    ['/witness/{originHash}/checkpoint']: {
      get: {
        operationId: 'getWitnessMonitoringCheckpoint',
        tags: [TAG],
        summary: 'The latest checkpoint this witness cosigned for a log',
        description:
          'C2SP tlog-witness monitoring: the latest checkpoint this witness cosigned for the log whose origin hashes (SHA-256, lowercase hex) to `originHash`, with the log\'s signature and this witness\'s cosignature. Cached 60 seconds. 503 while the witness cannot read its state (docs/verification.md).',
        parameters: [{ name: 'originHash', in: 'path', required: true, description: 'The lowercase hex SHA-256 of the log\'s origin line.', schema: { type: 'string', pattern: '^[0-9a-f]{64}$' } }],
        responses: {
          '200': { description: 'The cosigned checkpoint, a signed note.', content: { 'text/plain': { schema: { type: 'string' } } } },
          '404': witnessError('This witness never cosigned a checkpoint of that log, or this sidecar is no witness.'),
          '429': witnessError('Too many witness requests from this address (`WITNESS_RATE_LIMIT`).'),
          '503': witnessError('The witness cannot read its state and serves nothing until its operator acts.'),
        },
      },
    },
  };
}
