# Switchboard's server in a container: the built CLI (apps/server/dist, an npm package of its own) on Node 20.
#
#   docker build -t switchboard .
#   docker run -d --name switchboard -p 4747:4747 -v switchboard-data:/data switchboard
#   docker exec switchboard switchboard keys create ops --scope admin --db /data/switchboard.db   # the first key
#
# It listens on 0.0.0.0 inside the container, so every route but /healthz and /readyz needs an API key. The catalog
# (and, without SWITCHBOARD_SECRET_KEY, the key file that encrypts source secrets beside it) lives in the volume
# /data. A config file mounted at /etc/switchboard/switchboard.config.json is applied at boot (the working directory's
# ./switchboard.config.json, as for `serve` anywhere); the command line's --host, --port and --db win over its
# "server" settings. README.md, "In a container"; test/cli/container-entrypoint.test.ts in apps/server runs this CMD.

FROM node:20-bookworm-slim AS build
# better-sqlite3 downloads a prebuilt binary, or compiles one where that download is unreachable
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
RUN npm install -g pnpm@12.4.2
WORKDIR /src
COPY . .
RUN pnpm install --frozen-lockfile --reporter=silent \
  && pnpm turbo run build --filter=@switchboard/server... \
  && npm pack ./apps/server/dist --pack-destination /tmp \
  && npm install -g --prefix /opt/switchboard /tmp/switchboard-*.tgz

FROM node:20-bookworm-slim
COPY --from=build /opt/switchboard /opt/switchboard
ENV PATH=/opt/switchboard/bin:$PATH \
  NODE_ENV=production
# the image's own unprivileged user (uid 1000); the volume and the config folder are its
RUN mkdir -p /data /etc/switchboard && chown node:node /data /etc/switchboard
USER node
VOLUME /data
WORKDIR /etc/switchboard
EXPOSE 4747
# /readyz reads and writes the catalog (a locked, full or vanished database answers 503); it needs no key
HEALTHCHECK --interval=15s --timeout=5s --start-period=10s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:4747/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["switchboard"]
CMD ["serve", "--host", "0.0.0.0", "--port", "4747", "--db", "/data/switchboard.db"]
