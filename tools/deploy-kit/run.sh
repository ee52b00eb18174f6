#!/bin/sh
# The deployment kit run for real (issue 29 "done when"), with podman and the stand-in base images of
# base-images.sh: the image (no .env, no site and no log key in it), one container, then the compose stack
# behind Caddy with a steady stream of requests while PostgreSQL is stopped for 30 s, one sidecar is
# stopped and started, and deploy/rollout.sh replaces both sidecars one at a time. The review log across
# rollouts has its own run: log-rollouts.sh. Not part of the test suite: it needs root,
# podman, podman-compose and debootstrap (docs/deploy.md "The kit, run for real"), and takes ~15 minutes.
# Results (versions, figures) go to $WORK/results.md and the console.
#
#   tools/deploy-kit/run.sh
set -eu
cd "$(dirname "$0")/../.."
ROOT=$(pwd)
WORK=${DEPLOY_KIT_WORK:-/var/tmp/reviews-deploy-kit}
PORT=${DEPLOY_KIT_PORT:-18081}
NODE="$ROOT/node_modules/node/bin/node"
IMAGE=localhost/reviews-service
. "$ROOT/tools/deploy-kit/lib.sh"
PUBLIC_URL=$URL
# GET a URL: its status, or 000 when nothing answered.
status() { curl -s -o /dev/null -w '%{http_code}' --max-time 10 "$1" || true; }
readyz_in() { podman exec "$1" node -e "fetch('http://127.0.0.1:4321/readyz').then(async (r) => console.log(r.status, await r.text()))"; }
same_log() { [ -n "$(checkpoint_in "$S1")" ] && [ "$(checkpoint_in "$S1")" = "$(checkpoint_in "$S2")" ]; }

tools/deploy-kit/base-images.sh >/dev/null
say "engine: $(podman --version), podman-compose $(podman-compose --version 2>/dev/null | grep -i 'podman-composer version' | awk '{print $NF}'), $(buildah --version | cut -d' ' -f1-3), runtime $(runc --version | head -1)"
say "stand-in images: node:24-slim = Debian 12 + Node $(podman run --rm docker.io/library/node:24-slim node --version) + npm $(podman run --rm docker.io/library/node:24-slim npm --version 2>/dev/null); postgres:17 = $(podman run --rm docker.io/library/postgres:17 /usr/lib/postgresql/15/bin/postgres --version); caddy:2 = Caddy $(podman run --rm docker.io/library/caddy:2 caddy version | cut -d' ' -f1)"

# 1. The image, and no secret in it.
start=$(date +%s)
podman build --pull=never --format docker -t "$IMAGE" --build-arg CONTENT_DIR=examples/demo --build-arg PUBLIC_URL="$PUBLIC_URL" . >"$WORK/image-build.log" 2>&1 || fail "podman build (see $WORK/image-build.log)"
say "image built in $(( $(date +%s) - start )) s: $(podman image inspect "$IMAGE" --format '{{.Id}}' | cut -c1-12), $(podman image inspect "$IMAGE" --format '{{.Size}}' | awk '{printf "%d MB", $1/1000000}')"
secrets=$(podman run --rm --entrypoint sh "$IMAGE" -c 'find / -xdev \( -name .env -o -name ".env.*" -o -name "*.env" -o -path /app/deploy -o -name log-keys \) -print 2>/dev/null; ls -A /app/data; true')
[ -z "$secrets" ] || fail "secret files, or files in /app/data, in the image: $secrets"
say "no .env, no deploy/, no log-keys and nothing in /app/data in the image; ENV_FILE=$(podman run --rm --entrypoint sh "$IMAGE" -c 'echo $ENV_FILE')"

# 2. One container: builds the site at its start, serves, passes its HEALTHCHECK, stops cleanly.
podman rm -f reviews-kit-one >/dev/null 2>&1 || true
start=$(date +%s)
podman run -d --name reviews-kit-one -p "127.0.0.1:$PORT:4321" -e PUBLIC_URL="$PUBLIC_URL" "$IMAGE" >/dev/null 2>&1
wait_for 600 sh -c "[ \"\$(curl -s -o /dev/null -w '%{http_code}' http://127.0.0.1:$PORT/readyz)\" = 200 ]" || fail "the container never got ready: $(podman logs reviews-kit-one 2>&1 | tail -5)"
for path in / /reviews.json /search/?query=leak /api/reviews/search?query=leak /feed.xml /.well-known/openapi.json; do
  [ "$(status "http://127.0.0.1:$PORT$path")" = 200 ] || fail "one container: $path"
done
say "one container: ready $(( $(date +%s) - start )) s after its start ($(podman logs reviews-kit-one 2>&1 | grep -E '^Built' | cut -c1-80))"
podman healthcheck run reviews-kit-one >/dev/null 2>&1 || fail "HEALTHCHECK"
podman stop -t 30 reviews-kit-one >/dev/null
say "one container: pages 200, HEALTHCHECK healthy, stopped with exit code $(podman inspect reviews-kit-one --format '{{.State.ExitCode}}'): $(podman logs reviews-kit-one 2>/dev/null | grep '"event":"shutdown"' | tail -1)"
podman rm -v reviews-kit-one >/dev/null

# 3. The compose stack: two sidecars, PostgreSQL, Caddy on loopback.
KIT="$WORK/kit"
set_up_kit examples/demo
cd "$KIT"
compose down -v >/dev/null 2>&1 || true
compose up -d >"$WORK/compose-up.log" 2>&1 || fail "podman-compose up (see $WORK/compose-up.log)"
S1=$(container sidecar-1); S2=$(container sidecar-2); PG=$(container postgres)
store_open() { readyz_in "$1" | grep -q '"state":"open"'; }
# sidecar-1 builds first; sidecar-2 waits until that build is there (compose-first-start.sh).
wait_for 600 store_open "$S1" && wait_for 600 store_open "$S2" || fail "sidecars not ready with an open store"
wait_for 60 sh -c "[ \"\$(curl -s -o /dev/null -w '%{http_code}' http://127.0.0.1:$PORT/reviews.json)\" = 200 ]" || fail "Caddy does not answer"
say "compose stack up: $S1, $S2, $PG, $(container caddy); through Caddy /reviews.json $(status "http://127.0.0.1:$PORT/reviews.json"); sidecar-2 restarted $(podman inspect "$S2" --format '{{.RestartCount}}') times before sidecar-1's build was there"
same_log || fail "the two sidecars serve different logs"
say "both sidecars serve one log: $(checkpoint_in "$S1" | head -2 | tr '\n' ' ')"

PHASE="$WORK/phase"
echo steady >"$PHASE"
"$NODE" "$ROOT/tools/deploy-kit/steady-load.ts" "http://127.0.0.1:$PORT" "$PHASE" >"$WORK/load.json" &
LOAD=$!
sleep 10

echo postgres-down >"$PHASE"
podman stop -t 30 "$PG" >/dev/null
say "PostgreSQL stopped; sidecar-1 /readyz: $(readyz_in "$S1")"
sleep 30
say "after 30 s without PostgreSQL, sidecar-1 /readyz: $(readyz_in "$S1"); hub ping through Caddy: $(curl -s -o /dev/null -w '%{http_code}' -X POST -d "hub.mode=publish&hub.url=$PUBLIC_URL/feed.xml" "http://127.0.0.1:$PORT/api/websub/hub")"
podman start "$PG" >/dev/null
wait_for 120 store_open "$S1" && wait_for 120 store_open "$S2" || fail "the store did not come back"
say "PostgreSQL back; both sidecars report the store open"

echo sidecar-1-stopped >"$PHASE"
start=$(date +%s)
podman stop -t 30 "$S1" >/dev/null
say "sidecar-1 stopped in $(( $(date +%s) - start )) s: $(podman logs "$S1" 2>/dev/null | grep '"event":"shutdown"' | tail -1)"
sleep 10
podman start "$S1" >/dev/null
wait_for 120 store_open "$S1" || fail "sidecar-1 did not come back"
sleep 5
say "sidecar-1 started again and ready"

echo rollout >"$PHASE"
start=$(date +%s)
COMPOSE=podman-compose COMPOSE_FILE_PATH=compose.yaml sh "$ROOT/deploy/rollout.sh" >"$WORK/rollout.log" 2>&1 || fail "deploy/rollout.sh (see $WORK/rollout.log)"
say "rolling redeploy (deploy/rollout.sh) done in $(( $(date +%s) - start )) s"
S1=$(container sidecar-1); S2=$(container sidecar-2)
same_log || fail "after the rollout, the two sidecars serve different logs"
say "after the rollout both sidecars serve one log: $(checkpoint_in "$S1" | head -2 | tr '\n' ' ')"

echo after >"$PHASE"
sleep 5
kill -TERM "$LOAD"; wait "$LOAD" || true
say "steady stream through Caddy: $(cat "$WORK/load.json")"
"$NODE" -e "const r = JSON.parse(require('fs').readFileSync('$WORK/load.json', 'utf8')); process.exit(r.failed === 0 && r.ok > 0 ? 0 : 1)" || fail "requests failed"
compose down -v >/dev/null 2>&1
say "all phases passed: 0 failed requests"
