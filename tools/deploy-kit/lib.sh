# The functions the deploy kit's scripts share (POSIX sh). A script sets ROOT (the checkout), WORK (its work
# folder), PORT (the loopback port it publishes on) and NODE (the Node binary), then:
#   . "$ROOT/tools/deploy-kit/lib.sh"
# Sourcing it sets URL (http://localhost:$PORT) and RESULTS ($WORK/results.md, created empty).
#   say <text...>              a timestamped line to the console and $RESULTS
#   fail <text...>             says "FAILED: <text>" and exits 1
#   wait_for <seconds> <cmd>   runs the command every second until it succeeds, or gives up after <seconds>
#   wait_ready <container>     until $URL/readyz answers 200, or the container ends (gives up after 600 s)
#   verify [<state file>]      a reader's `npm run verify` of $URL, trusting $VKEY (state: $WORK/reader-state.json)
#   size                       the number of entries in the log $URL serves
#   checkpoint_in <container>  the log checkpoint the container serves, asked from inside it
#   copy_working_tree <dir>    this checkout's files (tracked and untracked, not ignored) into a fresh <dir>
#   edit_review <month file>   one verified review's text changed, as an owner would; prints the review's id
#   set_up_kit <content dir> [<kit-compose.ts>]
#                              a fresh compose project in $KIT: its .env (new secrets) and compose.yaml
#   compose <args...>          podman-compose on compose.yaml in the current folder ($KIT)
#   container <service>        the name of the service's container in the compose project of $KIT

URL="http://localhost:$PORT"
RESULTS="$WORK/results.md"
mkdir -p "$WORK"
: >"$RESULTS"

say() { echo "[$(date -u +%H:%M:%S)] $*" | tee -a "$RESULTS"; }
fail() { say "FAILED: $*"; exit 1; }
wait_for() {
  limit=$1; shift; waited=0
  until "$@" >/dev/null 2>&1; do
    waited=$((waited + 1)); [ "$waited" -lt "$limit" ] || return 1; sleep 1
  done
}
wait_ready() {
  waited=0
  until [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 5 "$URL/readyz" || true)" = 200 ]; do
    [ "$(podman inspect "$1" --format '{{.State.Running}}')" = true ] || return 1
    waited=$((waited + 1)); [ "$waited" -lt 600 ] || return 1; sleep 1
  done
}
verify() { (cd "$ROOT" && "$NODE" scripts/verify.ts "$URL" --key "$VKEY" --state "${1:-$WORK/reader-state.json}"); }
size() { curl -s "$URL/log/checkpoint" | sed -n 2p; }
checkpoint_in() { podman exec "$1" node -e "fetch('http://127.0.0.1:4321/log/checkpoint').then(async (r) => process.stdout.write(await r.text()))"; }

copy_working_tree() {
  rm -rf "$1" && mkdir -p "$1"
  git -C "$ROOT" ls-files -z --cached --others --exclude-standard | tar -C "$ROOT" --null -T - -c | tar -C "$1" -x
}
# The newest verified review of the month, its text changed: the change an owner commits.
edit_review() {
  "$NODE" -e '
    const fs = require("node:fs");
    const file = process.argv[1];
    const reviews = JSON.parse(fs.readFileSync(file, "utf8"));
    const review = reviews.find((r) => r.verified);
    review.text += " Edited by the owner.";
    fs.writeFileSync(file, JSON.stringify(reviews, null, 2) + "\n");
    console.log(review.id);
  ' "$1"
}

# Each script's project in a folder of its own: podman-compose 1.0.3 names the project (and so its
# containers and volumes) after the folder, and ignores compose.yaml's `name:`.
set_up_kit() {
  rm -rf "$KIT" && mkdir -p "$KIT"
  cat >"$KIT/.env" <<ENV
PUBLIC_URL=$URL
REVIEWS_SITE=:80
REVIEWS_PATH=
CONTENT_DIR=$1
POSTGRES_PASSWORD=$(head -c 18 /dev/urandom | base64 | tr -d '/+=')
MCP_SESSION_SECRET=$(head -c 32 /dev/urandom | base64 | tr -d '/+=')
ENV
  "$NODE" "${2:-$ROOT/tools/deploy-kit/kit-compose.ts}" "$KIT" "$PORT"
}
compose() { podman-compose -f compose.yaml "$@"; }
container() { podman ps -a --format '{{.Names}}' --filter "label=com.docker.compose.project=$(basename "$KIT")" --filter "label=com.docker.compose.service=$1" | head -1; }
