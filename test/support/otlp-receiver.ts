// An OTLP/HTTP trace receiver for tests: it takes what an exporter POSTs to /v1/traces and decodes it
// by the OTLP specification's JSON encoding (the `@opentelemetry/exporter-trace-otlp-http` exporter
// Loupe uses sends `application/json`): ids as hex strings, enums as integers, 64-bit integers as
// decimal strings or numbers, one AnyValue field per value, unknown fields ignored. Anything that does
// not decode is answered 400 and kept in `errors`, so a test sees it.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

export type AttributeValue = string | number | boolean | bigint | AttributeValue[] | { [key: string]: AttributeValue } | Uint8Array;

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  /** '' for a root span */
  parentSpanId: string;
  name: string;
  kind: 'UNSPECIFIED' | 'INTERNAL' | 'SERVER' | 'CLIENT' | 'PRODUCER' | 'CONSUMER';
  startNs: bigint;
  endNs: bigint;
  attributes: Record<string, AttributeValue>;
  events: Array<{ name: string; timeNs: bigint; attributes: Record<string, AttributeValue> }>;
  status: { code: 'UNSET' | 'OK' | 'ERROR'; message: string };
  resource: Record<string, AttributeValue>;
  scope: string;
}

export interface ReceivedRequest {
  method: string;
  path: string;
  contentType: string;
  contentEncoding: string;
  spans: number;
}

const KINDS = ['UNSPECIFIED', 'INTERNAL', 'SERVER', 'CLIENT', 'PRODUCER', 'CONSUMER'] as const;
const STATUS = ['UNSET', 'OK', 'ERROR'] as const;

class DecodeError extends Error {}

function fail(path: string, message: string): never {
  throw new DecodeError(`${path}: ${message}`);
}

function obj(v: unknown, path: string): Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) fail(path, `expected an object, got ${JSON.stringify(v)}`);
  return v as Record<string, unknown>;
}

/** repeated fields may be absent (empty) in proto3 JSON */
function list(v: unknown, path: string): unknown[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) fail(path, 'expected an array');
  return v;
}

function str(v: unknown, path: string, def = ''): string {
  if (v === undefined || v === null) return def;
  if (typeof v !== 'string') fail(path, `expected a string, got ${JSON.stringify(v)}`);
  return v;
}

/** int64 / fixed64: proto3 JSON allows a decimal string or a number */
function int64(v: unknown, path: string): bigint {
  if (v === undefined || v === null) return 0n;
  if (typeof v === 'number' && Number.isInteger(v)) return BigInt(v);
  if (typeof v === 'string' && /^-?\d+$/.test(v)) return BigInt(v);
  fail(path, `expected a 64-bit integer (decimal string or number), got ${JSON.stringify(v)}`);
}

/** OTLP/JSON: trace and span ids are hex strings, not base64 (the one departure from proto3 JSON) */
function hexId(v: unknown, bytes: number, path: string, optional = false): string {
  const s = str(v, path);
  if (optional && s === '') return '';
  if (!new RegExp(`^[0-9a-fA-F]{${bytes * 2}}$`).test(s)) fail(path, `expected ${bytes * 2} hex digits, got ${JSON.stringify(s)}`);
  if (/^0+$/.test(s)) fail(path, 'an all-zero id is invalid');
  return s.toLowerCase();
}

/** OTLP/JSON: enums are integers */
function enumOf<T extends readonly string[]>(v: unknown, names: T, path: string): T[number] {
  const n = v === undefined ? 0 : v;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n >= names.length)
    fail(path, `expected an enum integer 0..${names.length - 1}, got ${JSON.stringify(v)}`);
  return names[n];
}

function anyValue(v: unknown, path: string): AttributeValue {
  const o = obj(v, path);
  const keys = Object.keys(o).filter((k) =>
    ['stringValue', 'boolValue', 'intValue', 'doubleValue', 'arrayValue', 'kvlistValue', 'bytesValue'].includes(k),
  );
  if (keys.length !== 1) fail(path, `an AnyValue holds exactly one value, got ${JSON.stringify(Object.keys(o))}`);
  const [k] = keys;
  const x = o[k];
  switch (k) {
    case 'stringValue':
      return str(x, `${path}.stringValue`);
    case 'boolValue':
      if (typeof x !== 'boolean') fail(`${path}.boolValue`, 'expected a boolean');
      return x;
    case 'intValue': {
      const n = int64(x, `${path}.intValue`);
      return n >= BigInt(Number.MIN_SAFE_INTEGER) && n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : n;
    }
    case 'doubleValue':
      // proto3 JSON: a number, or "NaN"/"Infinity"/"-Infinity"
      if (typeof x === 'number') return x;
      if (x === 'NaN' || x === 'Infinity' || x === '-Infinity') return Number(x);
      return fail(`${path}.doubleValue`, 'expected a number');
    case 'arrayValue':
      return list(obj(x, `${path}.arrayValue`).values, `${path}.arrayValue.values`).map((e, i) =>
        anyValue(e, `${path}.arrayValue.values[${i}]`),
      );
    case 'kvlistValue':
      return attributes(obj(x, `${path}.kvlistValue`).values, `${path}.kvlistValue.values`);
    default:
      return new Uint8Array(Buffer.from(str(x, `${path}.bytesValue`), 'base64'));
  }
}

function attributes(v: unknown, path: string): Record<string, AttributeValue> {
  const out: Record<string, AttributeValue> = {};
  list(v, path).forEach((kv, i) => {
    const o = obj(kv, `${path}[${i}]`);
    const key = str(o.key, `${path}[${i}].key`);
    if (key in out) fail(`${path}[${i}].key`, `duplicate attribute ${key}`);
    out[key] = anyValue(o.value, `${path}[${i}].value`);
  });
  return out;
}

/** Decodes an ExportTraceServiceRequest in OTLP/JSON into flat spans. */
export function decodeOtlpJsonTraces(body: unknown): ReceivedSpan[] {
  const spans: ReceivedSpan[] = [];
  list(obj(body, 'request').resourceSpans, 'resourceSpans').forEach((rs, r) => {
    const rsPath = `resourceSpans[${r}]`;
    const rso = obj(rs, rsPath);
    const resource =
      rso.resource === undefined ? {} : attributes(obj(rso.resource, `${rsPath}.resource`).attributes, `${rsPath}.resource.attributes`);
    list(rso.scopeSpans, `${rsPath}.scopeSpans`).forEach((ss, s) => {
      const ssPath = `${rsPath}.scopeSpans[${s}]`;
      const sso = obj(ss, ssPath);
      const scope = sso.scope === undefined ? '' : str(obj(sso.scope, `${ssPath}.scope`).name, `${ssPath}.scope.name`);
      list(sso.spans, `${ssPath}.spans`).forEach((sp, i) => {
        const p = `${ssPath}.spans[${i}]`;
        const o = obj(sp, p);
        const status = o.status === undefined ? {} : obj(o.status, `${p}.status`);
        const span: ReceivedSpan = {
          traceId: hexId(o.traceId, 16, `${p}.traceId`),
          spanId: hexId(o.spanId, 8, `${p}.spanId`),
          parentSpanId: hexId(o.parentSpanId, 8, `${p}.parentSpanId`, true),
          name: str(o.name, `${p}.name`),
          kind: enumOf(o.kind, KINDS, `${p}.kind`),
          startNs: int64(o.startTimeUnixNano, `${p}.startTimeUnixNano`),
          endNs: int64(o.endTimeUnixNano, `${p}.endTimeUnixNano`),
          attributes: attributes(o.attributes, `${p}.attributes`),
          events: list(o.events, `${p}.events`).map((e, j) => {
            const eo = obj(e, `${p}.events[${j}]`);
            return {
              name: str(eo.name, `${p}.events[${j}].name`),
              timeNs: int64(eo.timeUnixNano, `${p}.events[${j}].timeUnixNano`),
              attributes: attributes(eo.attributes, `${p}.events[${j}].attributes`),
            };
          }),
          status: { code: enumOf(status.code, STATUS, `${p}.status.code`), message: str(status.message, `${p}.status.message`) },
          resource,
          scope,
        };
        if (span.endNs < span.startNs) fail(p, 'ends before it starts');
        spans.push(span);
      });
    });
  });
  return spans;
}

export interface OtlpReceiver {
  /** base URL to give an exporter as OTEL_EXPORTER_OTLP_ENDPOINT */
  url: string;
  spans: ReceivedSpan[];
  requests: ReceivedRequest[];
  errors: string[];
  close(): Promise<void>;
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const requests: ReceivedRequest[] = [];
  const errors: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const contentType = String(req.headers['content-type'] ?? '');
      const contentEncoding = String(req.headers['content-encoding'] ?? '');
      const reject = (status: number, message: string) => {
        errors.push(`${req.method} ${req.url}: ${message}`);
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ code: 3, message }));
      };
      if (req.method !== 'POST' || req.url !== '/v1/traces') return reject(404, 'OTLP/HTTP traces are POSTed to /v1/traces');
      if (!contentType.startsWith('application/json'))
        return reject(415, `content type ${contentType}: this receiver decodes OTLP/JSON, which the configured exporter sends`);
      try {
        const raw = Buffer.concat(chunks);
        const body = contentEncoding === 'gzip' ? gunzipSync(raw) : raw;
        const decoded = decodeOtlpJsonTraces(JSON.parse(body.toString('utf8')));
        spans.push(...decoded);
        requests.push({ method: req.method, path: req.url, contentType, contentEncoding, spans: decoded.length });
        // a full success is an empty ExportTraceServiceResponse, in the request's encoding
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      } catch (e) {
        reject(400, (e as Error).message);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    requests,
    errors,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
