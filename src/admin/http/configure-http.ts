// What the HTTP app needs beyond its modules, applied by `loupe serve` and by the tests alike:
// request bodies limited in size, depth and keys, a correlation id on every request, and the
// OpenAPI document at /api/docs (behind the bearer token, like every route but /health and the
// viewer's page).
import type { INestApplication } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import type { LoupeConfig } from '../../config/loupe-config';
import { bearerFrom, tokenMatches } from '../admin-token';
import { ADMIN_TOKEN } from '../admin-auth.guard';
import { bodyShapeVerifier } from './body-shape';
import { correlationMiddleware, correlationIdOf } from './correlation-id';

export const API_DOCS_PATH = 'api/docs';

/** JSON bodies nesting deeper, or holding more keys in all, answer 400 before any validation runs. */
export const MAX_BODY_DEPTH = 64;
export const MAX_BODY_KEYS = 10_000;

type Req = Parameters<typeof correlationIdOf>[0];
interface Res {
  setHeader(name: string, value: string): void;
  status(code: number): { json(body: unknown): void };
}

export function configureHttpApp(app: INestApplication, config: LoupeConfig): void {
  const express = app as NestExpressApplication;
  express.disable('x-powered-by');
  express.useBodyParser('json', {
    limit: config.api.maxBodyBytes,
    verify: bodyShapeVerifier({ maxDepth: MAX_BODY_DEPTH, maxKeys: MAX_BODY_KEYS }),
  });
  express.useBodyParser('urlencoded', { limit: config.api.maxBodyBytes, extended: false });
  express.use(correlationMiddleware);
  const token = app.get<string>(ADMIN_TOKEN);
  // the UI, its assets and the document itself (/api/docs-json, /api/docs-yaml)
  express.use((req: Req & { url: string }, res: Res, next: () => void) => {
    if (!req.url.startsWith(`/${API_DOCS_PATH}`)) return next();
    if (tokenMatches(token, bearerFrom(req.headers.authorization as string | undefined))) return next();
    res.status(401).json({
      statusCode: 401,
      error: 'Unauthorized',
      message: 'missing or invalid bearer token (Authorization: Bearer <LOUPE_ADMIN_TOKEN>)',
      correlationId: correlationIdOf(req),
    });
  });
  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('Loupe admin API')
      .setDescription(
        'Drive Loupe over HTTP: sessions, approvals, eval runs, models, MCP servers. Every route but /health needs `Authorization: Bearer <LOUPE_ADMIN_TOKEN>`. Errors: `{statusCode, error, message, errors?: [{field, message}], correlationId}`.',
      )
      .setVersion('1')
      .addBearerAuth()
      .addSecurityRequirements('bearer')
      .build(),
  );
  SwaggerModule.setup(API_DOCS_PATH, app, document, { customSiteTitle: 'Loupe API' });
}
