# syntax=docker/dockerfile:1
# cityair-exporter image. Build, run and secrets: docs/container.md.
#
# The Node version is pinned exactly and must be one of the versions .ci/run tests on (node@X.Y.Z), which
# package.json "engines" allows; test/container/dockerfile-policy.test.ts and test/node-versions.test.ts enforce
# it. Node 26.10.0 is a "Current" release, not LTS: the 26 line is promoted to LTS later in its life. When
# Node's release list marks a 26.x.y as LTS, pin that exact version in the three FROM lines and the base.name
# label below, and in .ci/run (docs/container.md, "Node version").
# trixie: Debian 13 is the default and longest-supported base of the official Node 26 images.

# Production dependencies only, installed apart from the build so that no dev tool reaches the image
# and this layer is cached until package-lock.json changes.
FROM node:26.10.0-trixie-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
# No production dependency needs an install script; refusing them all closes that supply-chain door.
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund

FROM node:26.10.0-trixie-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build
# Declared this late so that a new revision reuses every cached layer above. The exporter ignores a
# REVISION that is not 7-40 hex digits, so a bad value costs only the label.
ARG REVISION=""
RUN if [ -n "$REVISION" ]; then printf '%s\n' "$REVISION" > dist/REVISION; fi

FROM node:26.10.0-trixie-slim
# No org.opencontainers.image.revision here: a LABEL cannot be left out when REVISION is empty, and an empty
# revision label claims a build of no commit. The build command sets it with --label (docs/container.md).
LABEL org.opencontainers.image.title="cityair-exporter" \
      org.opencontainers.image.description="Prometheus exporter for the CityAir air-quality platform" \
      org.opencontainers.image.licenses="MIT" \
      org.opencontainers.image.base.name="docker.io/library/node:26.10.0-trixie-slim"
# The young generation held at two 4 MiB semi-spaces, the size src/v8-settings.ts holds a large list's at run time
# on Node 20-24 (a small list's at 4 MiB in all).
# Node 26 grows it to 32 MiB and more under a scrape's allocations, and its V8 no longer keeps to the cap set
# at run time: only a --max-semi-space-size given at start holds it. 10-25 MiB less RSS, the same CPU per scrape
# at 10,000 stations (docs/benchmarks.md). In NODE_OPTIONS, not on the command line: a NODE_OPTIONS given to
# docker run replaces this one, where a command-line flag would silently win over it (docs/container.md).
ENV NODE_ENV=production \
    NODE_OPTIONS="--max-semi-space-size=4"
WORKDIR /app
# Owned by root and not writable by the exporter's user: a compromised process cannot alter its own code.
# package.json sits next to dist/ because the exporter reads its version from ../package.json.
COPY package.json ./
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# Numeric: Kubernetes can only prove runAsNonRoot for a numeric user. 1000 is "node" in the base image.
USER 1000:1000
EXPOSE 9610
# Node itself, since the slim image has no curl or wget. It probes the port of CITYAIR_LISTEN_ADDRESS
# (default :9610), so move the port with that variable: a --web.listen-address flag is invisible here.
# A wildcard host is probed on 127.0.0.1, which a dual-stack :: listener also accepts. When plain HTTP is
# cut off (TLS from --web.config.file) it asks again over HTTPS without verifying the certificate: the
# server is this container's own and the probe sends nothing secret. Worst case 2 x 2 s, inside --timeout.
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 \
  CMD ["node", "-e", "const a=(process.env.CITYAIR_LISTEN_ADDRESS||':9610').trim();const i=a.lastIndexOf(':');let h=a.slice(0,i);if(h.startsWith('['))h=h.slice(1,-1);if(h===''||h==='0.0.0.0'||h==='::')h='127.0.0.1';const get=(s,next)=>process.getBuiltinModule('node:'+s).get({host:h,port:a.slice(i+1),path:'/healthz',timeout:2000,rejectUnauthorized:false},r=>process.exit(r.statusCode===200?0:1)).on('error',e=>next&&e.code!=='ECONNREFUSED'?next():process.exit(1)).on('timeout',()=>process.exit(1));get('http',()=>get('https'))"]
# Exec form: node is PID 1 and receives docker stop's SIGTERM itself (src/main.ts handles it); flags
# given to docker run are appended to this command line.
ENTRYPOINT ["node", "dist/main.js"]
