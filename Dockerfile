FROM node:20-bookworm-slim
WORKDIR /app
COPY package.json package-lock.json ./
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY migrations ./migrations
COPY bench ./bench
COPY bin ./bin
COPY scenarios ./scenarios
RUN npm ci && npm prune --omit=dev
ENV LOUPE_PORT=3000
EXPOSE 3000
CMD ["node", "dist/src/main.js"]
