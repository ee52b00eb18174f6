#!/bin/sh
# A deploy that loses no request (docs/deploy.md "Rolling redeploy"): builds the image once from the
# repository as it is now (code and content), then replaces the sidecars one at a time. Each old sidecar
# drains (its /readyz turns 503, Caddy moves traffic to the other one, requests in flight finish), the new
# one starts, and the next sidecar waits until Caddy can see this one ready. Before that, a one-off
# container of the new image builds the site into the shared volume, continuing the review log there with
# the key there: content that does not build stops the deploy before any sidecar is replaced, and the
# running sidecars serve the new build as soon as it is in place. Subscribers are notified once, by the
# first sidecar that compares the topics with the hub's store. From the repository's root:
#   sh deploy/rollout.sh                    # Docker Compose
#   COMPOSE=podman-compose sh deploy/rollout.sh
set -eu
COMPOSE=${COMPOSE:-docker compose}
FILE=${COMPOSE_FILE_PATH:-deploy/compose.yaml}
SIDECARS=${SIDECARS:-sidecar-1 sidecar-2}
# Caddy's health_interval (deploy/caddy/Caddyfile) twice over: time for it to mark a new sidecar ready.
SETTLE_SECONDS=${SETTLE_SECONDS:-5}
READY_TIMEOUT_SECONDS=${READY_TIMEOUT_SECONDS:-300}
compose() { $COMPOSE -f "$FILE" "$@"; }
case "$COMPOSE" in
  *podman-compose*)
    # podman-compose 1.0.3 has no `rm`, recreates the dependencies too (PostgreSQL) and stops with -t 10:
    # the sidecar's container is stopped and removed through podman itself, within stop_grace_period.
    project_dir=$(cd "$(dirname "$FILE")" && pwd)
    replace() {
      for container in $(podman ps -a -q --filter "label=com.docker.compose.service=$1" --filter "label=com.docker.compose.project.working_dir=$project_dir"); do
        podman stop -t 30 "$container" >/dev/null
        podman rm "$container" >/dev/null
      done
      compose up -d "$1"
    }
    ;;
  *)
    replace() {
      compose stop "$1"
      compose rm -f "$1"
      compose up -d --no-deps "$1"
    }
    ;;
esac

first=$(echo "$SIDECARS" | cut -d' ' -f1)
echo "rollout: building the image (code and content, no site)"
compose build "$first"
echo "rollout: building the site into the shared volume, with a one-off $first"
if ! compose run --rm --no-deps -T "$first" npm run build; then
  echo "rollout: the site did not build (above); no sidecar was replaced, they keep serving the last build" >&2
  exit 1
fi
for sidecar in $SIDECARS; do
  echo "rollout: replacing $sidecar (stops gracefully within its stop_grace_period)"
  replace "$sidecar"
  waited=0
  until compose exec -T "$sidecar" node -e "fetch('http://127.0.0.1:4321/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))" >/dev/null 2>&1; do
    waited=$((waited + 1))
    if [ "$waited" -ge "$READY_TIMEOUT_SECONDS" ]; then
      echo "rollout: $sidecar is not ready after $READY_TIMEOUT_SECONDS s; stopping here, the other sidecars keep serving (see its logs)" >&2
      exit 1
    fi
    sleep 1
  done
  echo "rollout: $sidecar is ready"
  sleep "$SETTLE_SECONDS"
done
echo "rollout: done; every sidecar serves the new image"
