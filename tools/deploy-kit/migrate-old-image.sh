#!/bin/sh
# Issue 41 item 4, the way over: a deployment of an image that built the site inside itself (the Dockerfile
# before b2f349e: `RUN npm run build` with DATA_DIR=data, so the log's key lived in an image layer and was
# copied into the container's volume) moved to the image that builds at start into its volume, keeping one
# review log. With podman and the stand-in base images of base-images.sh (docs/deploy.md "Moving from an
# image that built inside itself" gives the same commands for an owner):
#   1. the old image, built from `git archive` of the last commit whose Dockerfile ran `npm run build`,
#      with a content folder of its own (a copy of that commit's demo, so a log with a key of its own), run
#      as its docs said (a named volume on /app/data); a reader runs `npm run verify` and keeps its state;
#   2. the problem: the new image on an empty volume makes a second key, and the reader's state refuses it;
#   3. the move: `npm run backup` in the old container (the hub's state and the last log), restored into a
#      new volume by the new image, the keys copied from the old container's image over those, a one-off
#      `npm run build` there (the old container still serving), then the old container stopped and the new
#      one started on that volume: the same key, the log one entry longer (a review changed), and
#      the reader's saved state passes; the new image holds no key;
#   4. the same move from an old container whose /app/data was a host folder (its volume then never held
#      the key: the backup has none, the image alone has it);
#   5. the same move from a volume that outlived an earlier old image (the volume holds that image's key,
#      while the build served is signed by the current image's: the image's key is the one to keep).
# Not part of the test suite: it needs root, podman and debootstrap, and takes about 3 minutes. Exits 1 at
# the first failure. Results go to $WORK/results.md and the console.
#
#   tools/deploy-kit/migrate-old-image.sh
set -eu
cd "$(dirname "$0")/../.."
ROOT=$(pwd)
WORK=${DEPLOY_KIT_WORK:-/var/tmp/reviews-migrate}
PORT=${DEPLOY_KIT_PORT:-18093}
NODE="$ROOT/node_modules/node/bin/node"
# The Dockerfile's last version that built inside the image: the parent of the commit that removed the step.
OLD_COMMIT=${OLD_COMMIT:-$(git rev-parse "$(git log -1 --format=%H -G'^RUN npm run build' -- Dockerfile)^")}
IMAGE=localhost/reviews-migrate
OLD="$IMAGE:old-$(echo "$OLD_COMMIT" | cut -c1-7)"
NEW="$IMAGE:new"
. "$ROOT/tools/deploy-kit/lib.sh"
cleanup() { # one name at a time: podman 4.3 stops at the first name it does not know
  for c in reviews-old reviews-old-folder reviews-new reviews-fresh; do podman rm -f "$c" >/dev/null 2>&1 || true; done
  for v in reviews-old-data reviews-new-data reviews-new-data-2 reviews-new-data-3 reviews-fresh-data; do podman volume rm -f "$v" >/dev/null 2>&1 || true; done
  rm -rf "$WORK/old-folder" "$WORK/reviews.backup"
}

DEPLOY_KIT_WORK=/var/tmp/reviews-deploy-kit tools/deploy-kit/base-images.sh >/dev/null
say "engine: $(podman --version), $(buildah --version | cut -d' ' -f1-3), runtime $(runc --version | head -1)"
say "stand-in base image: node:24-slim = Debian 12 minbase + Node $(podman run --rm docker.io/library/node:24-slim node --version) + npm $(podman run --rm docker.io/library/node:24-slim npm --version 2>/dev/null)"
cleanup

# The owner's content, the same in both images but for one review changed in the new one.
OLD_CTX="$WORK/old-context"
NEW_CTX="$WORK/new-context"
rm -rf "$OLD_CTX" && mkdir -p "$OLD_CTX"
git archive "$OLD_COMMIT" | tar -C "$OLD_CTX" -x
cp -r "$OLD_CTX/examples/demo" "$OLD_CTX/content"
copy_working_tree "$NEW_CTX"
rm -rf "$NEW_CTX/content" && cp -r "$OLD_CTX/content" "$NEW_CTX/content"
CHANGED=$(edit_review "$NEW_CTX/content/reviews/2026-11.json")

run_old() { # <container> <what to mount on /app/data> <reader's state file>: the old deployment, a reader's first visit
  podman run -d --name "$1" --init -p "127.0.0.1:$PORT:4321" -e PUBLIC_URL="$URL" -v "$2:/app/data" "$OLD" >/dev/null 2>>"$WORK/podman-run.log"
  wait_ready "$1" || fail "the old container $1 never got ready: $(podman logs "$1" 2>&1 | tail -5)"
  # The reader trusts the vkey the owner published (here: the one the first old container serves).
  VKEY=${VKEY:-$(curl -s "$URL/log/vkey")}
  rm -f "$3"
  verify "$3" >"$WORK/verify-$1.log" 2>&1 || fail "verify against $1 (see $WORK/verify-$1.log)"
  OLD_SIZE=$(size)
  say "$1 serving (/app/data: $2): log of $OLD_SIZE entries, vkey $(curl -s "$URL/log/vkey"); the reader's verify exits 0, state saved"
}
move() { # <old container> <new volume> <reader's state file>: the commands of docs/deploy.md, then the checks
  # The hub's state and the last published log, from the old container while it serves.
  podman exec "$1" npm run backup -- /tmp/reviews.backup >"$WORK/backup-$1.log" 2>&1 || fail "npm run backup in $1 (see $WORK/backup-$1.log)"
  grep -q 'and the last published log' "$WORK/backup-$1.log" || fail "the backup lacks the log: $(grep Backed "$WORK/backup-$1.log")"
  rm -f "$WORK/reviews.backup"
  podman cp "$1:/tmp/reviews.backup" "$WORK/reviews.backup"
  podman exec "$1" rm /tmp/reviews.backup
  say "npm run backup in $1: $(grep -o 'Backed up.*' "$WORK/backup-$1.log" | cut -c1-200)"
  # Restored by the new image, the file read from standard input (no host file mounted: no owner to fix).
  podman run --rm -i -v "$2:/app/data" "$NEW" sh -c 'cat >/tmp/reviews.backup && npm run restore -- /tmp/reviews.backup' <"$WORK/reviews.backup" >"$WORK/restore-$1.log" 2>&1 || fail "npm run restore (see $WORK/restore-$1.log)"
  say "npm run restore into $2: $(grep -o 'Restored.*' "$WORK/restore-$1.log" | cut -c1-200)"
  # Then the keys from the old container's own image (a tag may name the new image by now), over those of
  # the backup: the image's key signed the build it serves; the volume's is another when the volume
  # outlived an earlier old image (each of those made a key of its own).
  old_image=$(podman inspect --format '{{.Image}}' "$1")
  podman run --rm --entrypoint tar "$old_image" -C /app/data -c log-keys | podman run --rm -i -v "$2:/app/data" --entrypoint tar "$NEW" -C /app/data -x || fail "copying the keys out of $1's image"
  say "keys from $1's image ($(echo "$old_image" | cut -c1-12)) into $2: $(podman run --rm -v "$2:/app/data" --entrypoint ls "$NEW" -l /app/data/log-keys | awk 'NR > 1 {print $1, $3, $NF}' | tr '\n' ' ')"
  # The site built once in the new volume while the old container still serves.
  start=$(date +%s)
  podman run --rm -e PUBLIC_URL="$URL" -v "$2:/app/data" "$NEW" npm run build >"$WORK/build-site-$1.log" 2>&1 || fail "the one-off npm run build (see $WORK/build-site-$1.log)"
  grep -q "Created the review log's signing key" "$WORK/build-site-$1.log" && fail "the one-off build made a new key"
  say "one-off npm run build in $2 ($(( $(date +%s) - start )) s): $(grep -E '^Built' "$WORK/build-site-$1.log" | cut -c1-160)"
  podman stop -t 30 "$1" >/dev/null
  start=$(date +%s)
  podman run -d --name reviews-new --init -p "127.0.0.1:$PORT:4321" -e PUBLIC_URL="$URL" -v "$2:/app/data" "$NEW" >/dev/null 2>>"$WORK/podman-run.log"
  wait_ready reviews-new || fail "the new container never got ready: $(podman logs reviews-new 2>&1 | tail -5)"
  podman logs reviews-new 2>&1 | grep -qE "^(No build yet|Content or code changed)|Created the review log's signing key" && fail "the new container built again or made a key: $(podman logs reviews-new 2>&1 | grep -v '^{' | head -3)"
  say "$1 stopped, the new container started on $2: ready $(( $(date +%s) - start )) s after its start, without building"
  # The log goes on: the same key (the old image's files), one entry more, the reader's state passes.
  [ "$(curl -s "$URL/log/vkey")" = "$VKEY" ] || fail "the new container serves another key: $(curl -s "$URL/log/vkey")"
  new_sums=$(podman exec reviews-new sh -c 'cd /app/data/log-keys && sha256sum *')
  [ "$new_sums" = "$OLD_KEY_SUMS" ] || fail "the volume's keys differ from the old image's: $new_sums"
  verify "$3" >"$WORK/verify-new-$1.log" 2>&1 || fail "the reader's verify after the move from $1 (see $WORK/verify-new-$1.log)"
  say "after the move from $1 ($CHANGED changed): the same vkey, log-keys/ byte for byte the old image's ($(echo "$new_sums" | awk '{print $2}' | tr '\n' ' ')); log $OLD_SIZE -> $(size) entries; the reader's saved state passes: $(grep -E '^History:' "$WORK/verify-new-$1.log")"
  podman stop -t 30 reviews-new >/dev/null
  say "new container stopped: $(podman logs reviews-new 2>/dev/null | grep '"event":"shutdown"' | tail -1 | cut -c1-120)"
  podman rm reviews-new >/dev/null
}

# 1. The old image, as its Dockerfile said: the site (and so the key) built into it for PUBLIC_URL.
start=$(date +%s)
if ! podman image exists "$OLD"; then
  podman build --pull=never --format docker -t "$OLD" --build-arg PUBLIC_URL="$URL" "$OLD_CTX" >"$WORK/build-old.log" 2>&1 || fail "podman build of $OLD_COMMIT (see $WORK/build-old.log)"
fi
say "old image $OLD from $(git log -1 --format='%h (%cd)' --date=short "$OLD_COMMIT") in $(( $(date +%s) - start )) s; podman history: $(podman history --no-trunc --format '{{.CreatedBy}}' "$OLD" | grep -c 'npm run build' || true) step running npm run build"
# The key and the job key, as the old image's layer holds them.
OLD_KEY_SUMS=$(podman run --rm --entrypoint sh "$OLD" -c 'cd /app/data/log-keys && sha256sum *')
[ -n "$OLD_KEY_SUMS" ] || fail "the old image holds no key: it is not the layout this moves from"
KEY_NAME=$(echo "$OLD_KEY_SUMS" | awk '{print $2}' | grep -v -e '\.jobs$' -e '\.previous$' | head -1)
say "the old image holds the log's keys in a layer: /app/data/log-keys/ $(echo "$OLD_KEY_SUMS" | awk '{print $2}' | tr '\n' ' ')"
VKEY=
run_old reviews-old reviews-old-data "$WORK/reader-state.json"

# 2. The problem: the new image, on an empty volume, starts a second history.
start=$(date +%s)
podman build --pull=never --format docker -t "$NEW" "$NEW_CTX" >"$WORK/build-new.log" 2>&1 || fail "podman build of the working tree (see $WORK/build-new.log)"
say "new image $NEW from the working tree ($(git rev-parse --short HEAD)) in $(( $(date +%s) - start )) s; podman history: $(podman history --no-trunc --format '{{.CreatedBy}}' "$NEW" | grep -c 'npm run build' || true) steps running npm run build"
podman stop -t 30 reviews-old >/dev/null
podman run -d --name reviews-fresh --init -p "127.0.0.1:$PORT:4321" -e PUBLIC_URL="$URL" -v reviews-fresh-data:/app/data "$NEW" >/dev/null 2>>"$WORK/podman-run.log"
wait_ready reviews-fresh || fail "the new image on an empty volume never got ready: $(podman logs reviews-fresh 2>&1 | tail -5)"
cp "$WORK/reader-state.json" "$WORK/reader-state-copy.json"
code=0
verify "$WORK/reader-state-copy.json" >"$WORK/verify-fresh.log" 2>&1 || code=$?
[ "$code" != 0 ] || fail "the reader's state accepted a log started on an empty volume"
podman logs reviews-fresh 2>&1 | grep -q "Created the review log's signing key" || fail "the new image on an empty volume made no key"
say "without the move: the new image on an empty volume made a second key ($(curl -s "$URL/log/vkey")); the reader's verify exits $code: $(grep -v '^\s*$' "$WORK/verify-fresh.log" | tail -1 | cut -c1-200)"
podman rm -f reviews-fresh >/dev/null && podman volume rm -f reviews-fresh-data >/dev/null
podman start reviews-old >/dev/null 2>>"$WORK/podman-run.log"
wait_ready reviews-old || fail "the old container did not start again"

# 3. The move from the old container on a named volume (the old docs' `-v reviews-data:/app/data`).
move reviews-old reviews-new-data "$WORK/reader-state.json"
keys_in_new=$(podman run --rm --entrypoint sh "$NEW" -c "find / -xdev -name log-keys 2>/dev/null; grep -rlF '$(podman run --rm -v reviews-new-data:/app/data --entrypoint cat "$NEW" "/app/data/log-keys/$KEY_NAME" | cut -c1-60)' /app 2>/dev/null; true")
[ -z "$keys_in_new" ] || fail "the new image holds a key: $keys_in_new"
say "the new image: no log-keys folder and no copy of the key's line under /app"

# 4. The same from an old container whose /app/data was a host folder: the key was only in the image.
mkdir -p "$WORK/old-folder" && chown 1000:1000 "$WORK/old-folder"
run_old reviews-old-folder "$WORK/old-folder" "$WORK/reader-state-folder.json"
[ ! -e "$WORK/old-folder/log-keys" ] || fail "the host folder holds the key: not the case this checks"
move reviews-old-folder reviews-new-data-2 "$WORK/reader-state-folder.json"
grep -q 'with 0 review log keys' "$WORK/backup-reviews-old-folder.log" || fail "the backup from the host folder held keys: not the case this checks"

# 5. A volume that outlived an earlier old image: its key (the earlier image's) signs nothing served now.
podman rm -f reviews-old >/dev/null && podman volume rm -f reviews-old-data >/dev/null
start=$(date +%s)
podman build --pull=never --format docker --no-cache -t "$OLD-earlier" --build-arg PUBLIC_URL="$URL" "$OLD_CTX" >"$WORK/build-old-earlier.log" 2>&1 || fail "podman build of the earlier old image (see $WORK/build-old-earlier.log)"
podman run -d --name reviews-old --init -p "127.0.0.1:$PORT:4321" -e PUBLIC_URL="$URL" -v reviews-old-data:/app/data "$OLD-earlier" >/dev/null 2>>"$WORK/podman-run.log"
wait_ready reviews-old || fail "the earlier old image never got ready"
EARLIER_VKEY=$(curl -s "$URL/log/vkey")
podman stop -t 30 reviews-old >/dev/null && podman rm reviews-old >/dev/null
[ "$EARLIER_VKEY" != "$VKEY" ] || fail "the earlier old image has the same key: not the case this checks"
say "an earlier old image ($(( $(date +%s) - start )) s) ran on reviews-old-data first: its key ($EARLIER_VKEY) is the volume's"
run_old reviews-old reviews-old-data "$WORK/reader-state-kept.json"
podman exec reviews-old sh -c 'cd /app/data/log-keys && sha256sum *' | grep -qF "$(echo "$OLD_KEY_SUMS" | head -1)" && fail "the volume holds the old image's key: not the case this checks"
move reviews-old reviews-new-data-3 "$WORK/reader-state-kept.json"
podman image rm "$OLD-earlier" >/dev/null

# The old image holds the key: it goes once nothing runs it.
cleanup
podman image rm "$OLD" >/dev/null
say "old containers, their volume and folder, and the old image removed; all steps passed"
