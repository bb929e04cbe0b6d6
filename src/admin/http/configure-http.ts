// What the HTTP app needs beyond its modules, applied by `loupe serve` and by the tests alike:
// request bodies limited in size, depth and keys, a correlation id on every request, and the
// OpenAPI explorer at /api/docs. The explorer's page and scripts hold no data and are served without
// the token (so a browser can open it); it reads the token the viewer tab keeps (sessionStorage, or
// #token=… in the URL) and sends it as the bearer header on every call — the document itself
// (/api/docs-json, -yaml) and every route but /health still need it.
import type { INestApplication } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import type { LoupeConfig } from '../../config/loupe-config';
import { bearerFrom, tokenMatches } from '../admin-token';
import { ADMIN_TOKEN } from '../admin-auth.guard';
import { API_DOCS_PATH } from './api-docs-path';
import { bodyShapeVerifier } from './body-shape';
import { correlationMiddleware, correlationIdOf } from './correlation-id';
import { buildOpenApiDocument } from './openapi-document';

export { API_DOCS_PATH };

/** JSON bodies nesting deeper, or holding more keys in all, answer 400 before any validation runs. */
export const MAX_BODY_DEPTH = 64;
export const MAX_BODY_KEYS = 10_000;

/** The document: behind the token like the API it describes. */
export const API_DOCUMENT_PATHS = [`/${API_DOCS_PATH}-json`, `/${API_DOCS_PATH}-yaml`];
const INIT_SCRIPT = 'swagger-ui-init.js';

type Req = Parameters<typeof correlationIdOf>[0];
interface Res {
  setHeader(name: string, value: string): void;
  status(code: number): { json(body: unknown): void };
}

// Runs in the explorer page before Swagger UI starts: the viewer's key for its token, a token in the
// fragment taken into it and out of the address bar, and a word when there is none.
const TAKE_TOKEN = `(function () {
  var KEY = 'loupe.token';
  var parts = location.hash.replace(/^#/, '').split('&');
  var found = parts.filter(function (p) { return p.indexOf('token=') === 0; })[0];
  if (found) {
    sessionStorage.setItem(KEY, decodeURIComponent(found.slice(6)));
    var rest = parts.filter(function (p) { return p.indexOf('token=') !== 0; }).join('&');
    history.replaceState(null, '', location.pathname + location.search + (rest ? '#' + rest : ''));
  }
  if (!sessionStorage.getItem(KEY)) {
    var note = document.createElement('p');
    note.id = 'loupe-token-missing';
    note.style.cssText = 'margin:0;padding:8px 16px;background:#fff4e5;font-family:sans-serif';
    note.textContent = 'No admin token in this tab: open the explorer from the viewer (API), or add #token=<LOUPE_ADMIN_TOKEN> to the address.';
    document.body.insertBefore(note, document.body.firstChild);
  }
})();`;

/** Swagger UI's hook on every request it makes (the document's fetch included): the tab's token as the bearer. Serialised into the page. */
function requestInterceptor(req: { headers: Record<string, string> }) {
  const token = (globalThis as unknown as { sessionStorage: { getItem(k: string): string | null } }).sessionStorage.getItem('loupe.token');
  if (token && !req.headers.Authorization) req.headers.Authorization = 'Bearer ' + token;
  return req;
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
  express.use((req: Req & { url: string }, res: Res, next: () => void) => {
    const pathname = req.url.split('?')[0];
    if (!API_DOCUMENT_PATHS.includes(pathname)) return next();
    if (tokenMatches(token, bearerFrom(req.headers.authorization as string | undefined))) return next();
    res.status(401).json({
      statusCode: 401,
      error: 'Unauthorized',
      message: 'missing or invalid bearer token (Authorization: Bearer <LOUPE_ADMIN_TOKEN>)',
      correlationId: correlationIdOf(req),
    });
  });
  SwaggerModule.setup(API_DOCS_PATH, app, buildOpenApiDocument(app), {
    customSiteTitle: 'Loupe API',
    // the page fetches the document with the token instead of carrying it in its public script
    swaggerUrl: API_DOCUMENT_PATHS[0],
    patchDocumentOnRequest: <Req>(req: Req, _res: unknown, doc: OpenAPIObject): OpenAPIObject =>
      ((req as { url?: string }).url ?? '').split('?')[0].endsWith(INIT_SCRIPT) ? (undefined as unknown as OpenAPIObject) : doc,
    customJsStr: TAKE_TOKEN,
    swaggerOptions: { requestInterceptor, persistAuthorization: false, displayRequestDuration: true },
  });
}
