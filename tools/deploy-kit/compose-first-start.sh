#!/bin/sh
# The compose stack's first start on empty volumes (deploy/compose.yaml), with podman-compose and the
# stand-in base images of base-images.sh: sidecar-1 builds the site into the shared volume, sidecar-2
# serves it once it is there. Checks that sidecar-2 was never restarted on the way (it waits for the
# build instead of exiting), that both then serve one log, that deploy/rollout.sh still replaces both, and
# that a waiting sidecar-2 stops at once.
# Not part of the test suite: it needs root, podman and podman-compose; about 5 minutes. Exits 1 at the
# first failure; results go to $WORK/results.md and the console.
#
#   tools/deploy-kit/compose-first-start.sh
set -eu
cd "$(dirname "$0")/../.."
ROOT=$(pwd)
WORK=${DEPLOY_KIT_WORK:-/var/tmp/reviews-first-start}
PORT=${DEPLOY_KIT_PORT:-18085}
NODE="$ROOT/node_modules/node/bin/node"
. "$ROOT/tools/deploy-kit/lib.sh"
readyz_in() { podman exec "$1" node -e "fetch('http://127.0.0.1:4321/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"; }

DEPLOY_KIT_WORK=/var/tmp/reviews-deploy-kit tools/deploy-kit/base-images.sh >/dev/null
say "engine: $(podman --version), podman-compose $(podman-compose --version 2>/dev/null | grep -i 'podman-composer version' | awk '{print $NF}')"
KIT="$WORK/first-start" # the compose project (podman-compose names it after the folder), apart from the other scripts' "kit"
set_up_kit examples/demo
cd "$KIT"
compose down -v >/dev/null 2>&1 || true
compose build sidecar-1 >"$WORK/image-build.log" 2>&1 || fail "the image (see $WORK/image-build.log)"
say "sidecar-2's $(awk '/^  sidecar-2:/ { f = 1 } f && /command:/ { print; exit }' "$ROOT/deploy/compose.yaml" | sed 's/^ *//')"
start=$(date +%s)
compose up -d >"$WORK/compose-up.log" 2>&1 || fail "podman-compose up (see $WORK/compose-up.log)"
S1=$(container sidecar-1); S2=$(container sidecar-2)
wait_for 600 readyz_in "$S1" || fail "sidecar-1 never got ready: $(podman logs "$S1" 2>&1 | tail -3)"
say "sidecar-1 ready $(( $(date +%s) - start )) s after up: $(podman logs "$S1" 2>&1 | grep -E '^Built' | cut -c1-100)"
wait_for 120 readyz_in "$S2" || fail "sidecar-2 never got ready: $(podman logs "$S2" 2>&1 | tail -3)"
restarts=$(podman inspect "$S2" --format '{{.RestartCount}}')
say "sidecar-2 ready $(( $(date +%s) - start )) s after up, restarted $restarts times; its output before serving: $(podman logs "$S2" 2>&1 | grep -v '^{' | grep -v '^$' | sort | uniq -c | head -3 | tr -s ' ' | tr '\n' ' ' | cut -c1-300)"
[ "$(checkpoint_in "$S1")" = "$(checkpoint_in "$S2")" ] || fail "the two sidecars serve different logs"
say "both sidecars serve one log: $(checkpoint_in "$S1" | sed -n 1,2p | tr '\n' ' ')"
[ "$restarts" = 0 ] || fail "sidecar-2 was restarted $restarts times before sidecar-1's build was there"

# deploy/rollout.sh on that stack: the new sidecar-2 finds the build there and serves at once.
start=$(date +%s)
COMPOSE=podman-compose COMPOSE_FILE_PATH=compose.yaml sh "$ROOT/deploy/rollout.sh" >"$WORK/rollout.log" 2>&1 || fail "deploy/rollout.sh (see $WORK/rollout.log)"
S1=$(container sidecar-1); S2=$(container sidecar-2)
[ "$(checkpoint_in "$S1")" = "$(checkpoint_in "$S2")" ] || fail "after the rollout, the two sidecars serve different logs"
say "deploy/rollout.sh done in $(( $(date +%s) - start )) s: $(grep -E 'is ready' "$WORK/rollout.log" | tr '\n' ' '); sidecar-2 restarted $(podman inspect "$S2" --format '{{.RestartCount}}') times; one log: $(checkpoint_in "$S2" | sed -n 2p) entries"
compose down -v >/dev/null 2>&1

# A sidecar-2 still waiting for a build stops at once when told to (no build ever comes: no sidecar-1).
compose up -d postgres >/dev/null 2>&1
compose run -d --name reviews-first-start-waiting sidecar-2 >/dev/null 2>&1 || true
sleep 5
[ "$(podman inspect reviews-first-start-waiting --format '{{.State.Running}}')" = true ] || fail "a sidecar-2 with no build did not wait: $(podman logs reviews-first-start-waiting 2>&1 | tail -3)"
start=$(date +%s)
podman stop -t 30 reviews-first-start-waiting >/dev/null
say "a sidecar-2 waiting with no build: stopped in $(( $(date +%s) - start )) s, exit code $(podman inspect reviews-first-start-waiting --format '{{.State.ExitCode}}')"
podman rm -f reviews-first-start-waiting >/dev/null
compose down -v >/dev/null 2>&1
say "all steps passed"
