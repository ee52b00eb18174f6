#!/bin/sh
# Stand-in base images for machines that reach Debian's packages and the npm registry but no container
# registry: node:24-slim, postgres:17 (Debian's PostgreSQL 15 in fact) and caddy:2 (Debian's Caddy 2.6),
# tagged with the names the Dockerfile and deploy/compose.yaml use. Built once; run.sh calls this when an
# image is missing. Needs podman, debootstrap and `npm ci` done in the repository (for Node 24's binary).
set -eu
cd "$(dirname "$0")/../.."
ROOT_DIR=$(pwd)
WORK=${DEPLOY_KIT_WORK:-/var/tmp/reviews-deploy-kit}
mkdir -p "$WORK"
have() { podman image exists "$1"; }

if ! have localhost/bookworm-base; then
  echo "== bookworm-base (debootstrap minbase)"
  rm -rf "$WORK/rootfs"
  debootstrap --variant=minbase bookworm "$WORK/rootfs" http://deb.debian.org/debian >"$WORK/debootstrap.log" 2>&1
  rm -rf "$WORK/rootfs/var/cache/apt/archives/"*.deb "$WORK/rootfs/var/lib/apt/lists/"*
  tar -C "$WORK/rootfs" -c . | podman import - localhost/bookworm-base >/dev/null
  rm -rf "$WORK/rootfs"
fi

CTX="$WORK/context"
fresh_context() { rm -rf "$CTX"; mkdir -p "$CTX"; }

if ! have docker.io/library/node:24-slim; then
  echo "== node:24-slim (Node $("$ROOT_DIR/node_modules/node/bin/node" --version), npm 11)"
  fresh_context
  cp "$ROOT_DIR/node_modules/node/bin/node" "$CTX/node"
  (cd "$CTX" && npm pack npm@11 --silent >/dev/null && mv npm-*.tgz npm.tgz)
  cp /etc/ssl/certs/ca-certificates.crt "$CTX/ca.crt"
  cat >"$CTX/Containerfile" <<'DOCKERFILE'
FROM localhost/bookworm-base
COPY node /usr/local/bin/node
COPY npm.tgz /tmp/npm.tgz
# Only for stand-in images built here: npm trusts the machine's CA bundle, as the host's npm does.
COPY ca.crt /usr/local/etc/ca.crt
RUN mkdir -p /usr/local/lib/node_modules/npm && tar -xzf /tmp/npm.tgz -C /usr/local/lib/node_modules/npm --strip-components=1 \
 && rm /tmp/npm.tgz && ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \
 && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \
 && printf 'cafile=/usr/local/etc/ca.crt\n' > /usr/local/etc/npmrc \
 && groupadd --gid 1000 node && useradd --uid 1000 --gid node --shell /bin/bash --create-home node
CMD ["node"]
DOCKERFILE
  podman build --pull=never --format docker -t docker.io/library/node:24-slim "$CTX" >"$WORK/node.log" 2>&1
fi

if ! have docker.io/library/postgres:17; then
  echo "== postgres:17 (Debian's PostgreSQL 15 standing in)"
  fresh_context
  cat >"$CTX/entrypoint.sh" <<'SH'
#!/bin/sh
# POSTGRES_USER / POSTGRES_PASSWORD / POSTGRES_DB as the official image honours them, first start only.
set -e
PGDATA=${PGDATA:-/var/lib/postgresql/data}
BIN=/usr/lib/postgresql/15/bin
mkdir -p "$PGDATA" /run/postgresql && chown -R postgres:postgres "$PGDATA" /run/postgresql && chmod 700 "$PGDATA"
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  printf '%s' "$POSTGRES_PASSWORD" > /tmp/pw && chown postgres /tmp/pw
  su postgres -c "$BIN/initdb -D $PGDATA -U ${POSTGRES_USER:-postgres} --pwfile=/tmp/pw -A scram-sha-256" >/dev/null
  rm /tmp/pw
  echo "host all all 0.0.0.0/0 scram-sha-256" >> "$PGDATA/pg_hba.conf"
  echo "host all all ::/0 scram-sha-256" >> "$PGDATA/pg_hba.conf"
  su postgres -c "$BIN/pg_ctl -D $PGDATA -o '-c listen_addresses=' -w start" >/dev/null
  # As the official image: POSTGRES_DB (default: the user's name) is created.
  DB=${POSTGRES_DB:-${POSTGRES_USER:-postgres}}
  if [ "$DB" != postgres ]; then
    su postgres -c "PGPASSWORD='$POSTGRES_PASSWORD' $BIN/psql -U ${POSTGRES_USER:-postgres} -d postgres -h /run/postgresql -c 'CREATE DATABASE \"$DB\"'" >/dev/null
  fi
  su postgres -c "$BIN/pg_ctl -D $PGDATA -m fast -w stop" >/dev/null
fi
exec su postgres -c "exec $BIN/postgres -D $PGDATA -c listen_addresses=*"
SH
  cat >"$CTX/Containerfile" <<'DOCKERFILE'
FROM localhost/bookworm-base
RUN apt-get update && apt-get install -y --no-install-recommends postgresql-15 && rm -rf /var/lib/apt/lists/* \
 && ln -s /usr/lib/postgresql/15/bin/pg_isready /usr/local/bin/pg_isready
COPY entrypoint.sh /usr/local/bin/entrypoint.sh
RUN chmod +x /usr/local/bin/entrypoint.sh
ENV PGDATA=/var/lib/postgresql/data
STOPSIGNAL SIGINT
EXPOSE 5432
CMD ["/usr/local/bin/entrypoint.sh"]
DOCKERFILE
  podman build --pull=never --format docker -t docker.io/library/postgres:17 "$CTX" >"$WORK/postgres.log" 2>&1
fi

if ! have docker.io/library/caddy:2; then
  echo "== caddy:2 (Debian's Caddy standing in)"
  fresh_context
  cat >"$CTX/Containerfile" <<'DOCKERFILE'
FROM localhost/bookworm-base
RUN apt-get update && apt-get install -y --no-install-recommends caddy ca-certificates && rm -rf /var/lib/apt/lists/* \
 && mkdir -p /config /data /etc/caddy
ENV XDG_CONFIG_HOME=/config XDG_DATA_HOME=/data
EXPOSE 80 443
CMD ["caddy", "run", "--config", "/etc/caddy/Caddyfile", "--adapter", "caddyfile"]
DOCKERFILE
  podman build --pull=never --format docker -t docker.io/library/caddy:2 "$CTX" >"$WORK/caddy.log" 2>&1
fi
rm -rf "$CTX"
podman images --format '{{.Repository}}:{{.Tag}} {{.Size}}' | grep -E 'bookworm-base|node|postgres|caddy'
