# syntax=docker/dockerfile:1
# Postwerk's image: the production artefact (scripts/assemble-artefact.mjs) on Node's slim image, run as
# the unprivileged `node` user. One image for every process: the HTTP server (the default command), and
# `node dist/worker.mjs`, `dist/smtp.mjs`, `dist/inbound.mjs`, `dist/cli.mjs …` (compose.yaml runs them all).
# docs/self-hosting.md#containers. Node's major version matches package.json's `node` devDependency, and
# server/container.test.ts keeps this file and compose.yaml in step with the artefact and the settings.

# Dependencies, exactly the lockfile's; postinstall applies internals/patches.
FROM node:24.21.0-bookworm-slim AS deps
WORKDIR /src
ENV PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 NEXT_TELEMETRY_DISABLED=1
COPY package.json package-lock.json ./
COPY internals/patches ./internals/patches
RUN npm ci --no-audit --no-fund

# The build: Next.js's standalone output and the process bundles, assembled into /artefact.
FROM deps AS build
COPY . .
RUN npm run build && node scripts/assemble-artefact.mjs /artefact

# The runtime: the artefact alone, no npm install, no sources, no build tools.
FROM node:24.21.0-bookworm-slim AS runtime
ENV NODE_ENV=production NEXT_TELEMETRY_DISABLED=1 PORT=3000 DATA_DIR=/data
WORKDIR /app
COPY --from=build /artefact /app
# The code stays root's and read-only to the service; it writes only DATA_DIR and Next.js's cache.
RUN mkdir -p /data /app/.next/cache && chown node:node /data /app/.next/cache
USER node
VOLUME /data
# HTTP (PORT); SMTP submission with STARTTLS and with implicit TLS, the bounce listener, and the worker's and
# bounce listener's health ports, as compose.yaml sets them (high ports: the process does not run as root).
EXPOSE 3000 2587 2465 2525 9464 9465
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/api/health/ready').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "server/server.mjs"]
