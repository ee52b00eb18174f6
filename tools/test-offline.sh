#!/usr/bin/env bash
# `npm test` as on a machine with no network and nothing installed but the project (issue 45): inside a
# network namespace with only loopback, and a mount namespace where the system's Chromium, Java, Go,
# PostgreSQL, nginx and caddy are out of reach, so a test that leans on any of them fails here as it
# would for a new user. Run as root (namespaces need it), in a clone where `npm install` has run:
#
#   tools/test-offline.sh                       # the whole suite
#   tools/test-offline.sh tests/sidecar         # arguments go to vitest
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "$(id -u)" != 0 ]; then
  echo 'test-offline: run as root: it makes a network and a mount namespace (unshare).' >&2
  exit 2
fi
hide=$(mktemp -d /tmp/test-offline-XXXXXX)
trap 'rm -rf "$hide"' EXIT
HIDE="$hide" unshare --net --mount --propagation private bash -s -- "$@" <<'INSIDE'
set -euo pipefail
ip link set lo up
# Each folder of commands is replaced by a copy without those the suite must not need: hard links, so
# the copy is instant and takes no room; the real folders are untouched outside this namespace.
for dir in /usr/bin /usr/local/bin; do
  copy="$HIDE/$(echo "$dir" | tr / _)"
  cp -al "$dir" "$copy"
  for name in chromium chromium-browser google-chrome java jing psql pg_ctl pg_ctlcluster postgres initdb nginx caddy go gofmt; do
    rm -f "$copy/$name"
  done
  mount --bind "$copy" "$dir"
done
for dir in /usr/lib/chromium /usr/lib/jvm /usr/lib/postgresql /usr/lib/go /usr/share/gocode; do
  if [ -d "$dir" ]; then mount -t tmpfs none "$dir"; fi
done
# The namespace's own links (/sys/class/net still shows the host's until sysfs is mounted again).
echo "test-offline: network interfaces: $(ip -o link show | awk -F': ' '{print $2}' | tr '\n' ' ')"
unset DATABASE_URL
npm test -- "$@"
INSIDE
