// The schemas of the rows the API returns as they were recorded (sessions, messages, iterations, tool
// calls, events, eval runs, cells, trials), generated from the entities' own TypeORM column metadata:
// a column added to an entity is in the document without being written down a second time.
import type { SchemaObject } from '@nestjs/swagger';
import { getMetadataArgsStorage } from 'typeorm';
import {
  EvalCellEntity,
  EvalRunEntity,
  EvalTrialEntity,
  EventEntity,
  IterationEntity,
  MessageEntity,
  SessionEntity,
  ToolCallEntity,
} from '../../../database/entities';
import { HIDDEN_COLUMNS } from './api-rows';

/** the component names the response DTOs refer to */
export const ENTITY_SCHEMAS = {
  SessionRow: SessionEntity,
  MessageRow: MessageEntity,
  IterationRow: IterationEntity,
  ToolCallRow: ToolCallEntity,
  EventRow: EventEntity,
  EvalRunRow: EvalRunEntity,
  EvalCellRow: EvalCellEntity,
  EvalTrialRow: EvalTrialEntity,
} as const;

export type EntitySchemaName = keyof typeof ENTITY_SCHEMAS;

// `originals` is storage bookkeeping, restored into the fields before a row is returned (Recorded<T>);
// the API's rows leave out the same columns (api-rows.ts)
const HIDDEN = HIDDEN_COLUMNS;

/** Postgres column type → its JSON form (as pg returns it and Nest serialises it). */
function columnSchema(type: unknown): SchemaObject {
  switch (type) {
    case 'int':
    case 'integer':
      return { type: 'integer' };
    case 'double precision':
      return { type: 'number' };
    // pg returns int8 as a string: exact beyond 2^53
    case 'bigint':
      return { type: 'string', pattern: '^-?[0-9]+$', description: 'a 64-bit integer, as a string' };
    case 'boolean':
      return { type: 'boolean' };
    case 'uuid':
      return { type: 'string', format: 'uuid' };
    case 'timestamptz':
      return { type: 'string', format: 'date-time' };
    case 'text':
      return { type: 'string' };
    case 'jsonb':
      return { description: 'JSON, as recorded' };
    default:
      throw new Error(`entity-schemas: no JSON form for column type ${String(type)}`);
  }
}

export function entitySchema(entity: (typeof ENTITY_SCHEMAS)[EntitySchemaName]): SchemaObject {
  const columns = getMetadataArgsStorage().filterColumns(entity);
  const properties: Record<string, SchemaObject> = {};
  const required: string[] = [];
  for (const c of columns) {
    if (HIDDEN.has(c.propertyName)) continue;
    const base = columnSchema(c.options.type);
    properties[c.propertyName] = c.options.nullable ? { ...base, nullable: true } : base;
    required.push(c.propertyName);
  }
  return { type: 'object', properties, required, additionalProperties: false };
}

// rows the API returns with fields of its own beside the columns
const VIEWS = {
  IterationView: {
    entity: IterationEntity,
    fields: { traceUrl: { type: 'string', nullable: true, description: 'its trace (null without LOUPE_TRACE_URL_TEMPLATE)' } },
  },
} as const satisfies Record<string, { entity: (typeof ENTITY_SCHEMAS)[EntitySchemaName]; fields: Record<string, SchemaObject> }>;

export type RowSchemaName = EntitySchemaName | keyof typeof VIEWS;

export function entitySchemas(): Record<RowSchemaName, SchemaObject> {
  const rows = Object.entries(ENTITY_SCHEMAS).map(([name, e]) => [name, entitySchema(e)]);
  const views = Object.entries(VIEWS).map(([name, v]) => {
    const base = entitySchema(v.entity);
    return [
      name,
      { ...base, properties: { ...base.properties, ...v.fields }, required: [...(base.required ?? []), ...Object.keys(v.fields)] },
    ];
  });
  return Object.fromEntries([...rows, ...views]) as Record<RowSchemaName, SchemaObject>;
}

const ref = (name: RowSchemaName) => ({ $ref: `#/components/schemas/${name}` });

/** `@ApiProperty(rowOf('SessionRow'))` and `@ApiProperty(rowsOf('MessageRow'))` */
export const rowOf = (name: RowSchemaName) => ({ allOf: [ref(name)] });
export const rowsOf = (name: RowSchemaName) => ({ type: 'array' as const, items: ref(name) });
