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
ENV NODE_ENV=production PORT=3000
EXPOSE 3000
CMD ["npx", "tsx", "services/src/api/server.ts"]
