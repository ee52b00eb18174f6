#!/bin/sh
# Issue 41 item 4, run for real: two image builds and rollouts keep one review log, and no image layer
# carries its key. With podman and the stand-in base images of base-images.sh:
#   1. image A from a content folder (a copy of examples/demo, so an owner's log with a key of its own),
#      run with a volume: the first start builds the site and makes the key in the volume; a reader runs
#      `npm run verify` and keeps its state;
#   2. one review changed, image B, rolled out (A stopped, B started on the same volume): B's start
#      continues the log, and the reader's saved state passes; the same again with image C;
#   3. every layer of A, B and C searched for the key (its own line, any `PRIVATE+KEY+` line, log-keys/);
#   4. `npm run backup` in the running container, restored into a new volume: image C started there
#      continues the same log, and the reader's state passes;
#   5. a first start for a public address that never had a log: refused, then `npm run build -- --new-log`
#      in a one-off container, then the service starts without building again;
#   6. a container killed during its build: the next start on that volume builds, and the log goes on.
# Not part of the test suite: it needs root, podman and debootstrap (docs/deploy.md "The log across
# rollouts"), and takes about 10 minutes. Results go to $WORK/results.md and the console.
#
#   tools/deploy-kit/log-rollouts.sh
set -eu
cd "$(dirname "$0")/../.."
ROOT=$(pwd)
WORK=${DEPLOY_KIT_WORK:-/var/tmp/reviews-log-rollouts}
PORT=${DEPLOY_KIT_PORT:-18091}
NODE="$ROOT/node_modules/node/bin/node"
IMAGE=localhost/reviews-log
NAME=reviews-log
VOLUME=reviews-log-data
. "$ROOT/tools/deploy-kit/lib.sh"

DEPLOY_KIT_WORK=/var/tmp/reviews-deploy-kit tools/deploy-kit/base-images.sh >/dev/null
say "engine: $(podman --version), $(buildah --version | cut -d' ' -f1-3), runtime $(runc --version | head -1)"
say "stand-in base image: node:24-slim = Debian 12 minbase + Node $(podman run --rm docker.io/library/node:24-slim node --version) + npm $(podman run --rm docker.io/library/node:24-slim npm --version 2>/dev/null)"

# The build context: this working tree's files (tracked and untracked, not ignored), and a content folder.
CTX="$WORK/context"
copy_working_tree "$CTX"
cp -r examples/demo "$CTX/content"
build_image() { # <tag>
  start=$(date +%s)
  podman build --pull=never --format docker -t "$IMAGE:$1" "$CTX" >"$WORK/build-$1.log" 2>&1 || fail "podman build $1 (see $WORK/build-$1.log)"
  say "image $1 built in $(( $(date +%s) - start )) s: $(podman image inspect "$IMAGE:$1" --format '{{.Id}}' | cut -c1-12), $(podman image inspect "$IMAGE:$1" --format '{{.Size}}' | awk '{printf "%d MB", $1/1000000}'), $(podman image inspect "$IMAGE:$1" --format '{{len .RootFS.Layers}}') layers"
}
run_image() { # <tag>: a container of that image on the volume, until it is ready
  start=$(date +%s)
  podman run -d --name "$NAME" --init -p "127.0.0.1:$PORT:4321" -e PUBLIC_URL="$URL" -v "$VOLUME:/app/data" "$IMAGE:$1" >/dev/null
  wait_ready "$NAME" || fail "image $1 never got ready: $(podman logs "$NAME" 2>&1 | tail -5)"
  say "image $1 ready $(( $(date +%s) - start )) s after its start: $(podman logs "$NAME" 2>&1 | grep -E '^(No build yet|Content or code changed|Built|Created)' | cut -c1-160 | tr '\n' ' ')"
}
stop_container() {
  podman stop -t 30 "$NAME" >/dev/null
  podman rm "$NAME" >/dev/null
}

podman rm -f "$NAME" >/dev/null 2>&1 || true
podman volume rm -f "$VOLUME" >/dev/null 2>&1 || true
podman volume create "$VOLUME" >/dev/null
# A new reader: a state kept from an earlier run remembers another key, and says so.
rm -f "$WORK/reader-state.json"
KEYS="$(podman volume inspect "$VOLUME" --format '{{.Mountpoint}}')/log-keys"

# 1. Image A, first start on an empty volume.
build_image a
run_image a
KEY_FILE=$(find "$KEYS" -type f ! -name '*.jobs' ! -name '*.previous' | head -1)
[ -n "$KEY_FILE" ] || fail "no key in the volume"
VKEY=$(curl -s "$URL/log/vkey")
say "the key is in the volume: $(stat -c 'mode %a, uid %u' "$KEY_FILE"), $(basename "$KEY_FILE") (with the job key: $(ls "$KEYS" | wc -l) files); the reader trusts $VKEY"
verify >"$WORK/verify-a.log" 2>&1 || fail "verify after A (see $WORK/verify-a.log)"
say "reader, first visit (A): log of $(size) entries, verify exit 0, state saved"

# 2. B and C: one review changed each time, a rollout on the same volume, the reader's saved state.
for step in b:2026-11 c:2026-10; do
  tag=${step%%:*}
  changed=$(edit_review "$CTX/content/reviews/${step#*:}.json")
  build_image "$tag"
  before=$(size)
  stop_container
  run_image "$tag"
  podman logs "$NAME" 2>&1 | grep -q "Created the review log's signing key" && fail "image $tag made a new key"
  [ "$(curl -s "$URL/log/vkey")" = "$VKEY" ] || fail "image $tag serves another key"
  verify >"$WORK/verify-$tag.log" 2>&1 || fail "verify after $tag (see $WORK/verify-$tag.log)"
  say "reader after the rollout to $tag ($changed changed): log $before -> $(size) entries, verify exit 0: $(grep -E '^History:' "$WORK/verify-$tag.log")"
done
SIZE_C=$(size)

# 3. No key in any layer: each image saved, each layer's files read.
KEY_LINE=$(cat "$KEY_FILE")
for tag in a b c; do
  dir="$WORK/saved-$tag"
  rm -rf "$dir" && mkdir -p "$dir"
  podman save --format docker-archive -o "$dir/image.tar" "$IMAGE:$tag" 2>/dev/null
  tar -C "$dir" -xf "$dir/image.tar"
  layers=0; keydirs=0; keylines=0; anykey=0; mentions=""
  for layer in $("$NODE" -e 'console.log(require(process.argv[1])[0].Layers.join(" "))' "$dir/manifest.json"); do
    layers=$((layers + 1))
    keydirs=$((keydirs + $(tar -tf "$dir/$layer" | grep -c 'log-keys' || true)))
    keylines=$((keylines + $(tar -xOf "$dir/$layer" | grep -acF "$KEY_LINE" || true)))
    anykey=$((anykey + $(tar -xOf "$dir/$layer" | grep -acE 'PRIVATE\+KEY\+[^+[:space:]]+\+[0-9a-f]{8}\+[A-Za-z0-9+/]{40,}' || true)))
    # Which files name the prefix at all (the code that reads and writes keys, expectedly).
    mkdir -p "$dir/x" && tar -C "$dir/x" -xf "$dir/$layer" 2>/dev/null || true
  done
  mentions=$(grep -rlF --exclude-dir=node_modules 'PRIVATE+KEY+' "$dir/x" 2>/dev/null | sed "s|$dir/x/||" | sort | tr '\n' ' ')
  [ "$keydirs" = 0 ] && [ "$keylines" = 0 ] && [ "$anykey" = 0 ] || fail "image $tag: $keydirs log-keys entries, $keylines copies of the key, $anykey key lines"
  say "image $tag: $layers layers, 0 entries named log-keys, 0 copies of the volume's key line, 0 lines of the form PRIVATE+KEY+<name>+<id>+<key>; files naming PRIVATE+KEY+ outside node_modules: ${mentions:-none}"
  say "image $tag, podman history: $(podman history --no-trunc --format '{{.CreatedBy}}' "$IMAGE:$tag" | grep -c 'npm run build' || true) steps naming npm run build"
  rm -rf "$dir"
done

# 4. Moving to another volume (another machine): a backup made while C serves, restored, C started there.
podman exec "$NAME" npm run backup -- /tmp/reviews.backup >"$WORK/backup.log" 2>&1 || fail "npm run backup (see $WORK/backup.log)"
podman cp "$NAME:/tmp/reviews.backup" "$WORK/reviews.backup"
chown 1000:1000 "$WORK/reviews.backup"
say "npm run backup in the running container: $(stat -c '%s bytes, mode %a' "$WORK/reviews.backup")"
stop_container
podman volume rm -f "$VOLUME-moved" >/dev/null 2>&1 || true
podman run --rm -v "$VOLUME-moved:/app/data" -v "$WORK/reviews.backup:/tmp/reviews.backup:ro" "$IMAGE:c" npm run restore -- /tmp/reviews.backup >"$WORK/restore.log" 2>&1 || fail "npm run restore (see $WORK/restore.log)"
before=$(podman run --rm -v "$VOLUME-moved:/app/data" --entrypoint sed "$IMAGE:c" -n 2p /app/data/last-log/checkpoint)
podman run -d --name "$NAME" --init -p "127.0.0.1:$PORT:4321" -e PUBLIC_URL="$URL" -v "$VOLUME-moved:/app/data" "$IMAGE:c" >/dev/null
wait_ready "$NAME" || fail "image c on the restored volume never got ready: $(podman logs "$NAME" 2>&1 | tail -5)"
podman logs "$NAME" 2>&1 | grep -q "Created the review log's signing key" && fail "a new key on the restored volume"
verify >"$WORK/verify-moved.log" 2>&1 || fail "verify after the move (see $WORK/verify-moved.log)"
say "restored into a new volume (last log: $before entries), image c started there: log $(size) entries, same key, verify exit 0: $(grep -E '^History:' "$WORK/verify-moved.log")"
stop_container
podman volume rm -f "$VOLUME-moved" >/dev/null
rm -f "$WORK/reviews.backup"

# 5. A public address that never had a log, on an empty volume: the documented first start.
PUBLIC=https://reviews.kit-check.home.arpa
podman volume rm -f "$VOLUME-public" >/dev/null 2>&1 || true
code=0
podman run --name "$NAME-public" -e PUBLIC_URL="$PUBLIC" -v "$VOLUME-public:/app/data" "$IMAGE:c" >"$WORK/public-first.log" 2>&1 || code=$?
podman rm "$NAME-public" >/dev/null
grep -q 'npm run build -- --new-log' "$WORK/public-first.log" || fail "first start for $PUBLIC: $(tail -3 "$WORK/public-first.log")"
say "first start for $PUBLIC on an empty volume: exit $code, $(grep -o 'No review log key[^.]*' "$WORK/public-first.log" | head -1)"
podman run --rm -e PUBLIC_URL="$PUBLIC" -v "$VOLUME-public:/app/data" "$IMAGE:c" npm run build -- --new-log >"$WORK/public-new-log.log" 2>&1 || fail "npm run build -- --new-log (see $WORK/public-new-log.log)"
say "one-off npm run build -- --new-log: $(grep -o 'Created the review log.s signing key for [^ ]*' "$WORK/public-new-log.log")"
podman run -d --name "$NAME" --init -p "127.0.0.1:$PORT:4321" -e PUBLIC_URL="$PUBLIC" -v "$VOLUME-public:/app/data" "$IMAGE:c" >/dev/null
wait_ready "$NAME" || fail "the service for $PUBLIC never got ready: $(podman logs "$NAME" 2>&1 | tail -5)"
podman logs "$NAME" 2>&1 | grep -qE '^(No build yet|Content or code changed)' && fail "the service built again"
say "then the service: ready without building again, checkpoint $(curl -s "$URL/log/checkpoint" | head -1)"
stop_container
podman volume rm -f "$VOLUME-public" >/dev/null

# 6. A container killed in the middle of its build (image B on C's volume: a rebuild is due, which puts
#    B's text of the review C changed back, an update).
podman run -d --name "$NAME" --init -p "127.0.0.1:$PORT:4321" -e PUBLIC_URL="$URL" -v "$VOLUME:/app/data" "$IMAGE:b" >/dev/null
waited=0
until podman logs "$NAME" 2>&1 | grep -q '^Content or code changed'; do waited=$((waited + 1)); [ "$waited" -lt 120 ] || fail "no rebuild began"; sleep 1; done
# Killed once the build makes its staging folders: it is under way, whatever its speed (a fixed 5 s
# outlasted a 4.7 s build).
BUILDS="$(dirname "$KEYS")/.builds"
waited=0
until ls -A "$BUILDS" 2>/dev/null | grep -q '^staging-'; do waited=$((waited + 1)); [ "$waited" -lt 1200 ] || fail "no staging folder appeared"; sleep 0.1; done
podman kill "$NAME" >/dev/null && podman rm "$NAME" >/dev/null
say "image b killed during its build; left in the volume: $(ls -A "$BUILDS" | tr '\n' ' ')"
run_image b
podman logs "$NAME" 2>&1 | grep -q '^Built' || fail "no build after the killed one: $(podman logs "$NAME" 2>&1 | grep -v '^{' | tail -3)"
verify >"$WORK/verify-killed.log" 2>&1 || fail "verify after the killed build (see $WORK/verify-killed.log)"
say "reader after the killed build and a new start: log $SIZE_C -> $(size) entries, verify exit 0: $(grep -E '^History:' "$WORK/verify-killed.log")"
stop_container
podman volume rm -f "$VOLUME" >/dev/null
say "all steps passed"
