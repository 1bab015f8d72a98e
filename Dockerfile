# AgentKit, compiled, on node:24-slim (Node 24 LTS; the test suite runs on Node 20 and 24, .ci/run).
#   docker build -t agentkit .
#   docker run -d --env-file .env -v agentkit-data:/data agentkit      (or: docker compose up -d)
# Register the slash commands once from a checkout: npm ci && npm run deploy-commands (same .env).

# --- build: dependencies, then src/ → dist/ with tsc, then drop the dev dependencies ---------------
FROM node:24-slim AS build
WORKDIR /app
# sqlite3 fetches a prebuilt binary when it can and compiles from source (node-gyp) when it cannot,
# with the headers this image ships (no download from nodejs.org).
ENV npm_config_nodedir=/usr/local
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

# --- runtime: node_modules + dist + package.json, as the unprivileged "node" user ---------------
FROM node:24-slim
ENV NODE_ENV=production \
    AGENTKIT_HOME=/data \
    METRICS_PORT=9464
WORKDIR /app
# Created before VOLUME so a new named volume starts out owned by "node".
RUN mkdir /data && chown node:node /data
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
USER node
VOLUME /data
# /healthz of the metrics server (METRICS_HOST defaults to 127.0.0.1, which is where this runs). No curl in slim images.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+process.env.METRICS_PORT+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# SIGTERM: finish the turns in flight and the closes under way, then exit (give it time: compose.yaml, stop_grace_period).
STOPSIGNAL SIGTERM
CMD ["node", "dist/index.js"]
