# syntax=docker/dockerfile:1
# Stage 1: install with npm (Bun comes from the npm registry) and build the single executable.
FROM node:20-bookworm AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci
COPY . .
RUN npm run build

# Stage 2: just the executable, run as an unprivileged user with its data on a volume.
FROM debian:bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 --home-dir /data --shell /usr/sbin/nologin dreadcast \
 && mkdir -p /data && chown dreadcast /data
COPY --from=build /src/dist/dreadcast /usr/local/bin/dreadcast
USER dreadcast
VOLUME ["/data"]
ENV DREADCAST_DATA_DIR=/data DREADCAST_PORT=3000 DREADCAST_HOST=0.0.0.0
EXPOSE 3000
# The health check asks /healthz where the server listens: --port and --host as given to the container
# (read from the server's command line, /proc/1/cmdline), else DREADCAST_PORT and DREADCAST_HOST, as the
# server itself takes them; every address (0.0.0.0, ::) is asked on 127.0.0.1. No curl or wget in the image:
# bash's /dev/tcp.
HEALTHCHECK --interval=30s --timeout=3s CMD ["/bin/bash", "-c", "port=${DREADCAST_PORT:-3000}; host=${DREADCAST_HOST:-0.0.0.0}; set -- $(tr '\\0' ' ' </proc/1/cmdline); while [ $# -gt 0 ]; do case $1 in --port) port=$2; shift;; --port=*) port=${1#--port=};; --host) host=$2; shift;; --host=*) host=${1#--host=};; esac; shift; done; case $host in ''|0.0.0.0|::|'[::]') host=127.0.0.1;; esac; exec 3<>/dev/tcp/$host/$port && printf 'GET /healthz HTTP/1.0\\r\\n\\r\\n' >&3 && grep -q '200 OK' <&3"]
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/local/bin/dreadcast"]
