// The OpenAPI document of the admin API: the routes' DTOs (class-validator for what comes in, response
// DTOs for what goes out), the rows' schemas from their entities, the MCP body from its zod schemas,
// and on every operation the errors it can answer, all in the one error shape (./error-mapping.ts).
import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, getSchemaPath, SwaggerModule, type OpenAPIObject, type SchemaObject } from '@nestjs/swagger';
import { DOCTOR_EXTRA_MODELS } from '../dto/responses/doctor-responses.dto';
import { entitySchemas } from '../dto/responses/entity-schemas';
import { MERGED_SCHEMAS, RUN_VIEW_EXTRA_MODELS } from '../dto/responses/run-views-responses.dto';
import { ErrorBodyDto } from './error-body.dto';
import { statusText } from './error-mapping';

type Operation = OpenAPIObject['paths'][string]['get'] & object;
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

const GENERIC: Record<number, string> = {
  400: 'invalid input: `errors` names each field at fault',
  401: 'missing or invalid bearer token',
  404: 'nothing with that id or name',
  413: 'request body too large (LOUPE_API_MAX_BODY_BYTES)',
  500: 'internal error (logged with its correlation id)',
};

/** The statuses an operation can answer whatever it does, from what it takes. */
export function genericErrorStatuses(op: Operation): number[] {
  const statuses = [500];
  if (op.security?.length) statuses.push(401);
  const params = (op.parameters ?? []) as Array<{ in?: string }>;
  if (params.length || op.requestBody) statuses.push(400);
  if (params.some((p) => p.in === 'path')) statuses.push(404);
  if (op.requestBody) statuses.push(413);
  return statuses.sort();
}

/** Adds the generic error answers to every operation (those a route declares itself are kept). */
export function withErrorResponses(doc: OpenAPIObject): OpenAPIObject {
  const errorBody = { 'application/json': { schema: { $ref: getSchemaPath(ErrorBodyDto) } } };
  for (const item of Object.values(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method] as Operation | undefined;
      if (!op) continue;
      for (const status of genericErrorStatuses(op)) {
        op.responses[String(status)] ??= { description: `${statusText(status)}: ${GENERIC[status]}`, content: errorBody };
      }
    }
  }
  return doc;
}

export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const doc = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('Loupe admin API')
      .setDescription(
        'Drive Loupe over HTTP: sessions, approvals, eval runs, models, MCP servers. Every route but /health needs `Authorization: Bearer <LOUPE_ADMIN_TOKEN>` ' +
          '(this explorer sends the token of the viewer tab it was opened from). Errors: `{statusCode, error, message, errors?: [{field, message}], correlationId}`.',
      )
      .setVersion('1')
      .addBearerAuth()
      .build(),
    { extraModels: [ErrorBodyDto, ...DOCTOR_EXTRA_MODELS, ...RUN_VIEW_EXTRA_MODELS] },
  );
  const schemas = { ...doc.components?.schemas, ...entitySchemas() } as Record<string, SchemaObject>;
  for (const [name, parts] of Object.entries(MERGED_SCHEMAS)) schemas[name] = mergeSchemas(parts.map((p) => schemas[p]));
  doc.components = { ...doc.components, schemas };
  return withErrorResponses(doc);
}

/** Object schemas' properties laid over each other (a later one's field wins), required fields joined. */
export function mergeSchemas(parts: readonly SchemaObject[]): SchemaObject {
  const properties = Object.assign({}, ...parts.map((p) => p.properties ?? {})) as Record<string, SchemaObject>;
  const required = [...new Set(parts.flatMap((p) => p.required ?? []))];
  return { type: 'object', properties, required, additionalProperties: false };
}
