# One image for the api and the worker (they differ by command). Not built on the development
# machines of this project (no Docker engine there); see README "Containers".
FROM node:20-bookworm-slim
WORKDIR /app
COPY package.json package-lock.json ./
COPY services/package.json services/
COPY infra/package.json infra/
COPY web-member/package.json web-member/
COPY web-admin/package.json web-admin/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build
# Production: the api and the worker refuse to start without JWT_SECRET, CODE_PEPPER and
# PAYSTACK_SECRET_KEY (random, 32+ characters; never the published defaults), and an empty
# database needs ADMIN_EMAIL (plus ADMIN_PASSWORD, or a printed setup link). Behind a load
# balancer set TRUST_PROXY to its hop count (1) or addresses. See README "Production".
ENV NODE_ENV=production PORT=3000 TRUST_PROXY=false
EXPOSE 3000
CMD ["npx", "tsx", "services/src/api/server.ts"]
