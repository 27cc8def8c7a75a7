# dyno, as the image of the load generators `dyno load --kubernetes <n>` makes
# manifests for (docs/merge.md, "Kubernetes"):
#
#   docker build -t registry.example.com/dyno:0.1.0 .
#   docker push registry.example.com/dyno:0.1.0
#   dyno load --kubernetes 4 --image registry.example.com/dyno:0.1.0 … <url>
#
# The manifests' default image is dyno:<version of package.json>.
FROM node:20-slim

WORKDIR /dyno
ENV NODE_ENV=production
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force
COPY bin ./bin
COPY lib ./lib
COPY viewer ./viewer

# The node user of the image (uid 1000), as the Job's pods run it.
USER node
ENTRYPOINT ["node", "/dyno/bin/dyno.js"]
