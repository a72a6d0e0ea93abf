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
HEALTHCHECK --interval=30s --timeout=3s CMD ["/bin/bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/3000 && printf 'GET /healthz HTTP/1.0\\r\\n\\r\\n' >&3 && grep -q '200 OK' <&3"]
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/local/bin/dreadcast"]
