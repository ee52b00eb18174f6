#!/bin/sh
# migrate-old-image.sh for the compose stack: the old deploy/compose.yaml (2f23990: the site built inside
# the image, a volume per sidecar, data-1 and data-2, each given the image's /app/data and so its key) moved
# to the new one (one volume, data, built into by sidecar-1) with deploy/rollout.sh, keeping one review log,
# with a steady stream of requests through Caddy all along. With podman, podman-compose and the stand-in base
# images of base-images.sh:
#   1. the old stack up from `git archive` of that commit, a copy of its demo as the content; a reader runs
#      `npm run verify` through Caddy and keeps its state;
#   2. `npm run backup` in the old sidecar-1 (the key and the last log; the hub's state stays in PostgreSQL),
#      the new compose file in the same folder (so the same project, the same PostgreSQL volume), the backup
#      restored into the new volume `data` by a one-off sidecar-1, the keys of the old sidecar-1's image put
#      over it, then `sh deploy/rollout.sh`;
#   3. the same key, the log one entry longer (a review changed), the reader's saved state passes, and no
#      request failed.
# Not part of the test suite: it needs root, podman, podman-compose and debootstrap; about 2 minutes. Exits 1
# at the first failure. Results go to $WORK/results.md and the console.
#
#   tools/deploy-kit/migrate-old-compose.sh
set -eu
cd "$(dirname "$0")/../.."
ROOT=$(pwd)
WORK=${DEPLOY_KIT_WORK:-/var/tmp/reviews-migrate-compose}
PORT=${DEPLOY_KIT_PORT:-18087}
NODE="$ROOT/node_modules/node/bin/node"
OLD_COMMIT=${OLD_COMMIT:-$(git rev-parse "$(git log -1 --format=%H -G'^RUN npm run build' -- Dockerfile)^")}
. "$ROOT/tools/deploy-kit/lib.sh"
ok_through_caddy() { [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 5 "$URL/log/checkpoint")" = 200 ]; }

DEPLOY_KIT_WORK=/var/tmp/reviews-deploy-kit tools/deploy-kit/base-images.sh >/dev/null
say "engine: $(podman --version), podman-compose $(podman-compose --version 2>/dev/null | grep -i 'podman-composer version' | awk '{print $NF}')"

# The two build contexts: the old commit and this working tree, each with the same content folder but for
# one review changed in the new one.
OLD_CTX="$WORK/old-context"
NEW_CTX="$WORK/new-context"
rm -rf "$OLD_CTX" && mkdir -p "$OLD_CTX"
git archive "$OLD_COMMIT" | tar -C "$OLD_CTX" -x
cp -r "$OLD_CTX/examples/demo" "$OLD_CTX/content"
ln -s "$ROOT/node_modules" "$OLD_CTX/node_modules" # for its kit-compose.ts alone (.dockerignore keeps it out)
copy_working_tree "$NEW_CTX"
rm -rf "$NEW_CTX/content" && cp -r "$OLD_CTX/content" "$NEW_CTX/content"
ln -sfn "$ROOT/node_modules" "$NEW_CTX/node_modules"
CHANGED=$(edit_review "$NEW_CTX/content/reviews/2026-11.json")

# One folder for both compose files, as an owner's deploy/: podman-compose 1.0.3 names the project after it.
KIT="$WORK/moved" # the compose project (named after the folder), apart from the other scripts' "kit"
# What an earlier run left: its stack (either compose file) and the old volumes, and the image.
if [ -f "$KIT/compose.yaml" ]; then (cd "$KIT" && compose down -v >/dev/null 2>&1 || true); fi
if [ -f "$KIT/compose-old.yaml" ]; then (cd "$KIT" && podman-compose -f compose-old.yaml down -v >/dev/null 2>&1 || true); fi
for v in moved_data-1 moved_data-2; do podman volume rm -f "$v" >/dev/null 2>&1 || true; done
podman image rm -f localhost/reviews-service >/dev/null 2>&1 || true

# 1. The old stack, as its compose file said (the image built with PUBLIC_URL, the site inside it).
set_up_kit content "$OLD_CTX/tools/deploy-kit/kit-compose.ts"
cd "$KIT"
cp compose.yaml compose-old.yaml
start=$(date +%s)
compose up -d >"$WORK/compose-up-old.log" 2>&1 || fail "podman-compose up of the old stack (see $WORK/compose-up-old.log)"
wait_for 600 ok_through_caddy || fail "the old stack never answered through Caddy"
OLD_S1=$(container sidecar-1); OLD_S2=$(container sidecar-2)
say "old stack ($(git -C "$ROOT" log -1 --format=%h "$OLD_COMMIT")) up in $(( $(date +%s) - start )) s: $OLD_S1 on $(podman inspect "$OLD_S1" --format '{{range .Mounts}}{{.Name}}{{end}}'), $OLD_S2 on $(podman inspect "$OLD_S2" --format '{{range .Mounts}}{{.Name}}{{end}}'); image history: $(podman history --no-trunc --format '{{.CreatedBy}}' localhost/reviews-service | grep -c 'npm run build' || true) step running npm run build"
OLD_KEY_SUMS=$(podman exec "$OLD_S1" sh -c 'cd /app/data/log-keys && sha256sum *')
VKEY=$(curl -s "$URL/log/vkey")
rm -f "$WORK/reader-state.json"
verify >"$WORK/verify-old.log" 2>&1 || fail "verify against the old stack (see $WORK/verify-old.log)"
OLD_SIZE=$(size)
say "reader through Caddy: log of $OLD_SIZE entries, vkey $VKEY, verify exit 0, state saved"

PHASE="$WORK/phase"
echo old >"$PHASE"
"$NODE" "$ROOT/tools/deploy-kit/steady-load.ts" "http://127.0.0.1:$PORT" "$PHASE" >"$WORK/load.json" &
LOAD=$!
sleep 5

# 2. The move: the backup from the old sidecar-1 while it serves (the exec works with either compose file).
echo backup >"$PHASE"
compose exec -T sidecar-1 npm run backup -- /tmp/reviews.backup >"$WORK/backup.log" 2>&1 || fail "npm run backup (see $WORK/backup.log)"
# podman-compose 1.0.3 prints its own lines on standard output: the file comes out with podman cp.
rm -f "$WORK/reviews.backup"
podman cp "$OLD_S1:/tmp/reviews.backup" "$WORK/reviews.backup"
podman exec "$OLD_S1" rm /tmp/reviews.backup
grep -qE '[1-9][0-9]* review log keys? and the last published log' "$WORK/backup.log" || fail "the backup lacks the key or the log: $(grep -o 'Backed up.*' "$WORK/backup.log")"
say "npm run backup in the old sidecar-1: $(grep -o 'Backed up.*' "$WORK/backup.log" | cut -c1-160)"
# The new compose file in its place (the owner's pull), the new image, and the backup restored into `data`.
"$NODE" "$NEW_CTX/tools/deploy-kit/kit-compose.ts" "$KIT" "$PORT"
echo restore >"$PHASE"
compose build sidecar-1 >"$WORK/build-new.log" 2>&1 || fail "the new image (see $WORK/build-new.log)"
compose run --rm --no-deps -T sidecar-1 sh -c 'cat >/tmp/reviews.backup && npm run restore -- /tmp/reviews.backup' <"$WORK/reviews.backup" >"$WORK/restore.log" 2>&1 || fail "npm run restore (see $WORK/restore.log)"
say "npm run restore by a one-off new sidecar-1 into the volume data: $(grep -o 'Restored.*' "$WORK/restore.log" | cut -c1-200)"
# The keys of the old sidecar-1's own image over those of the backup (migrate-old-image.sh, case 5).
podman run --rm --entrypoint tar "$(podman inspect --format '{{.Image}}' "$OLD_S1")" -C /app/data -c log-keys \
  | compose run --rm --no-deps -T --entrypoint tar sidecar-1 -C /app/data -x >"$WORK/keys.log" 2>&1 || fail "the keys out of the old image (see $WORK/keys.log)"
say "keys from the old sidecar-1's image into the volume data"
rm -f "$WORK/reviews.backup"
echo rollout >"$PHASE"
start=$(date +%s)
COMPOSE=podman-compose COMPOSE_FILE_PATH=compose.yaml sh "$ROOT/deploy/rollout.sh" >"$WORK/rollout.log" 2>&1 || fail "deploy/rollout.sh (see $WORK/rollout.log)"
S1=$(container sidecar-1); S2=$(container sidecar-2)
grep -q "Created the review log's signing key" "$WORK/rollout.log" && fail "the rollout's build made a new key"
say "deploy/rollout.sh done in $(( $(date +%s) - start )) s: $(grep -E '^Built' "$WORK/rollout.log" | cut -c1-80); $S1 on $(podman inspect "$S1" --format '{{range .Mounts}}{{.Name}}{{end}}'), $S2 on $(podman inspect "$S2" --format '{{range .Mounts}}{{.Name}}{{end}}')"
echo after >"$PHASE"
sleep 5
kill -TERM "$LOAD"; wait "$LOAD" || true

# 3. The log goes on, and nothing failed.
[ "$(curl -s "$URL/log/vkey")" = "$VKEY" ] || fail "the new stack serves another key: $(curl -s "$URL/log/vkey")"
for s in "$S1" "$S2"; do
  [ "$(podman exec "$s" sh -c 'cd /app/data/log-keys && sha256sum *')" = "$OLD_KEY_SUMS" ] || fail "$s's keys differ from the old image's"
done
verify >"$WORK/verify-new.log" 2>&1 || fail "the reader's verify after the move (see $WORK/verify-new.log)"
say "after the move ($CHANGED changed): the same vkey, log-keys/ byte for byte the old one's in both sidecars; log $OLD_SIZE -> $(size) entries; the reader's saved state passes: $(grep -E '^History:' "$WORK/verify-new.log")"
say "steady stream through Caddy: $(cat "$WORK/load.json")"
"$NODE" -e "const r = JSON.parse(require('fs').readFileSync('$WORK/load.json', 'utf8')); process.exit(r.failed === 0 && r.ok > 0 ? 0 : 1)" || fail "requests failed"
say "old volumes left for the owner to remove: $(podman volume ls --format '{{.Name}}' | grep -E '^moved_data-[12]$' | tr '\n' ' ')"
compose down -v >/dev/null 2>&1
for v in moved_data-1 moved_data-2; do podman volume rm -f "$v" >/dev/null 2>&1 || true; done
say "all steps passed"
