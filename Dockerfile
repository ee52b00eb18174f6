# syntax=docker/dockerfile:1
# The reviews service in one image (docs/deploy.md "Container"): the official Node slim image, production
# dependencies only, the code and the content folder, run as a non-root user, configured from the
# environment. The image holds no site and no key: the site is built when a container starts, into the
# volume /app/data, which also holds the review log's key (docs/log.md). So a new image continues the log
# the volume holds, and no image layer carries the key. tests/deploy/dockerfile-replay.test.ts replays
# these steps without a container engine.
#
#   docker build -t reviews .
#   docker run -p 4321:4321 -e PUBLIC_URL=https://reviews.example.com -v reviews-data:/app/data reviews
# The first start for a public address that never had a log (the build cannot tell, and refuses):
#   docker run --rm -e PUBLIC_URL=https://reviews.example.com -v reviews-data:/app/data reviews npm run build -- --new-log
FROM node:24-slim

WORKDIR /app

# Production dependencies only. The image's own Node 24 runs everything, so the `node` package (which
# brings Node 24 to machines with an older one) is dropped; npm's cache stays out of the image.
COPY package.json package-lock.json .npmrc ./
RUN --mount=type=cache,target=/root/.npm npm ci --omit=dev --no-audit --no-fund && rm -rf node_modules/node node_modules/.bin/node

COPY . .

# The content to publish (a folder in the build context: `npm run init` makes `content/`; try the demo
# with --build-arg CONTENT_DIR=examples/demo) and the public URL a container has when run without one.
ARG CONTENT_DIR=content
ARG PUBLIC_URL=http://localhost:4321
# ENV_FILE=none: configuration comes from the container's environment only; no `.env` is read, even one
# that a mount brings (.dockerignore keeps every .env out of the build context).
ENV NODE_ENV=production \
    ENV_FILE=none \
    HOST=0.0.0.0 \
    PORT=4321 \
    CONTENT_DIR=${CONTENT_DIR} \
    PUBLIC_URL=${PUBLIC_URL} \
    DATA_DIR=data \
    DIST_DIR=data/dist

# The code stays root's and read-only; the user writes only the volume (the hub's data, the log's key,
# the builds) and the build's caches (Astro's generated types in .astro/, the rest in node_modules/.cache/).
# No build here: a key made at image build time would stay in a layer, and the next image would have none.
RUN mkdir -p data .astro node_modules/.cache && chown 1000:1000 data .astro node_modules/.cache
USER 1000:1000

# `npm start` (the CMD) builds at start when the volume has no build or an older one (other content,
# code or PUBLIC_URL), continuing the log of the build it finds there, then serves.
VOLUME /app/data
EXPOSE 4321
# The start period covers that build: a copy of the demo's 480 reviews was served 42 to 66 s after the
# container started, on a 2-core machine at a load average of 10 (tools/deploy-kit/log-rollouts.sh).
HEALTHCHECK --interval=30s --timeout=5s --start-period=300s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/healthz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Node itself as PID 1 gets SIGTERM and stops the service cleanly (run with --init for zombie reaping):
# give the engine a stop timeout above SHUTDOWN_DRAIN_SECONDS + SHUTDOWN_TIMEOUT_SECONDS (--stop-timeout,
# compose's stop_grace_period).
# The flags of `npm start` (docs/operations.md, "Node's flags"): Node's compile cache, kept in
# node_modules/.cache, and a young generation of at most 16 MB.
CMD ["node", "--import=./scripts/lib/compile-cache.ts", "--max-semi-space-size=16", "scripts/start.ts"]
