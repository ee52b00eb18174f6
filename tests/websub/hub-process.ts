/**
 * The hub alone in a child process, as the service runs it, for tests that must kill it (SIGKILL mid
 * fan-out) or that need Node to read NODE_EXTRA_CA_CERTS at start: the callback client gets no `ca`.
 *
 *   node tests/websub/hub-process.ts <config.json>
 *
 * config.json: { store: { kind: 'sqlite', file } | { kind: 'postgres', connectionString, schema },
 *   publicBase, topicsFile, options (HubOptions), client (CallbackClientOptions without ca) }.
 * topicsFile: { [topicUrl]: { text, contentType } }. Prints "started" once the hub has started.
 */
import { readFileSync } from 'node:fs';
import { createServiceUrls } from '../../core/urls.ts';
import { createCallbackClient } from '../../sidecar/websub/callbacks/client.ts';
import { createHub } from '../../sidecar/websub/hub.ts';
import { createPostgresHubStore } from '../../sidecar/websub/store/postgres/store.ts';
import { createSqliteHubStore } from '../../sidecar/websub/store/sqlite/store.ts';
import type { TopicSource } from '../../sidecar/websub/topics/source.ts';

const config = JSON.parse(readFileSync(process.argv[2]!, 'utf8'));
const urls = createServiceUrls(config.publicBase);
const topics: TopicSource = {
  topicUrls: urls.topics(),
  async read(topicUrl) {
    const entry = JSON.parse(readFileSync(config.topicsFile, 'utf8'))[topicUrl];
    return entry && { body: Buffer.from(entry.text), contentType: entry.contentType, etag: '"x"' };
  },
};
const store =
  config.store.kind === 'sqlite'
    ? createSqliteHubStore({ file: config.store.file })
    : await createPostgresHubStore({ connectionString: config.store.connectionString, schema: config.store.schema });
const client = createCallbackClient({ allowPrivateCallbacks: true, ...config.client });
const hub = createHub({ store, topics, hubUrl: urls.hub, options: config.options, client });
await hub.start();
process.stdout.write('started\n');
setInterval(() => {}, 60_000);
