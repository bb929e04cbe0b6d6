// How an external MCP server is reached: a command Loupe starts and talks to over stdio, or a URL it
// calls over Streamable HTTP. Validation is pure and reports every problem by field, so the admin API
// (400 with field errors), the CLI (exit 2) and the registry all say the same thing.
import * as path from 'node:path';
import { z } from 'zod';
import type { FieldError } from '../common/request-errors';
import { fieldErrors } from '../common/validation-issues';

/** lowercase, digits, "_" and "-": safe in tool-name prefixes (`<server>__<tool>`), paths and URLs */
export const MCP_SERVER_NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;
export const MCP_SERVER_NAME_RULE = 'lowercase letters, digits, "_" and "-", starting with a letter or digit, at most 64 characters';
export const MCP_TRANSPORTS = ['stdio', 'http'] as const;
export type McpTransport = (typeof MCP_TRANSPORTS)[number];

export interface StdioServerConfig {
  /** stdio is the default: configs written before HTTP servers existed have no transport */
  transport?: 'stdio';
  command: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
}

export interface HttpServerConfig {
  transport: 'http';
  url: string;
  headers?: Record<string, string>;
}

export type McpServerConfig = StdioServerConfig | HttpServerConfig;
export type ExternalMcpServerConfig = McpServerConfig & { name: string };

// dotted paths in the request: `name`, `config.url`, `config.env.MY_VAR`
export type { FieldError } from '../common/request-errors';

export type Validated<T> = { ok: true; value: T } | { ok: false; errors: FieldError[] };

export function transportOf(config: McpServerConfig): McpTransport {
  return config.transport === 'http' ? 'http' : 'stdio';
}

export function isHttpConfig(config: McpServerConfig): config is HttpServerConfig {
  return config.transport === 'http';
}

/** What the server is, in one line: its command line or its URL. */
export function endpointOf(config: McpServerConfig): string {
  return isHttpConfig(config) ? config.url : [config.command, ...(config.args ?? [])].join(' ');
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
// RFC 9110 token characters
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Why `url` is not a usable Streamable HTTP endpoint, or undefined. */
export function httpUrlProblem(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'not a valid URL';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return `must be an http:// or https:// URL (got ${parsed.protocol})`;
  return undefined;
}

export const envVars = z.record(z.string().regex(ENV_NAME, 'not a valid environment variable name'), z.string());
// a header value with a line break would smuggle headers into the request
export const httpHeaders = z.record(
  z.string().regex(HEADER_NAME, 'not a valid HTTP header name'),
  z.string().refine((v) => !/[\r\n]/.test(v), 'must not contain line breaks'),
);

const stdioConfig = z.strictObject({
  transport: z.literal('stdio'),
  command: z
    .string({ error: 'required: the program that starts the server' })
    .trim()
    .min(1, 'required: the program that starts the server'),
  args: z.array(z.string()).max(256).optional(),
  env: envVars.optional(),
  // a registered server outlives the shell that added it: no relative paths
  cwd: z
    .string()
    .refine((p) => path.isAbsolute(p), 'must be an absolute path')
    .optional(),
});

const httpConfig = z.strictObject({
  transport: z.literal('http'),
  url: z.string({ error: "required: the server's Streamable HTTP endpoint" }).superRefine((url, ctx) => {
    const problem = httpUrlProblem(url);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  }),
  headers: httpHeaders.optional(),
});

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** `{ name, config }` as the admin API and the CLI take it → a server config, or every problem by field. */
export function validateMcpServer(input: unknown): Validated<ExternalMcpServerConfig> {
  if (!isObject(input)) return { ok: false, errors: [{ field: '(body)', message: 'expected an object { name, config }' }] };
  const errors: FieldError[] = [];
  const { name, config, ...rest } = input;
  for (const key of Object.keys(rest)) errors.push({ field: key, message: 'unknown field' });
  if (typeof name !== 'string') errors.push({ field: 'name', message: 'required: a string' });
  else if (!MCP_SERVER_NAME.test(name)) errors.push({ field: 'name', message: MCP_SERVER_NAME_RULE });
  let parsed: McpServerConfig | undefined;
  if (!isObject(config)) {
    errors.push({ field: 'config', message: 'required: an object with the transport and its fields' });
  } else if (!(MCP_TRANSPORTS as readonly unknown[]).includes(config.transport)) {
    errors.push({ field: 'config.transport', message: `required: one of ${MCP_TRANSPORTS.join(', ')}` });
  } else {
    const result = (config.transport === 'http' ? httpConfig : stdioConfig).safeParse(config);
    if (result.success) parsed = result.data as McpServerConfig;
    else errors.push(...fieldErrors(result.error.issues, ['config']));
  }
  if (errors.length || !parsed) return { ok: false, errors };
  return { ok: true, value: { ...parsed, name: name as string } };
}

const REDACTED = '***';

/** The config to show (API, CLI): env and header values often hold credentials, so only their names. */
export function redactConfig(config: McpServerConfig): McpServerConfig {
  const hide = (r?: Record<string, string>) => (r ? Object.fromEntries(Object.keys(r).map((k) => [k, REDACTED])) : undefined);
  if (isHttpConfig(config)) return { ...config, ...(config.headers ? { headers: hide(config.headers) } : {}) };
  return { ...config, ...(config.env ? { env: hide(config.env) } : {}) };
}

/**
 * The admin API document's schemas of `{ name, config }` (POST /api/mcp/add) and of a config as
 * shown back, generated from the zod schemas validateMcpServer parses with (OpenAPI 3.0 dialect).
 */
export function mcpServerJsonSchemas(): { body: Record<string, unknown>; config: Record<string, unknown> } {
  const config = z.discriminatedUnion('transport', [stdioConfig, httpConfig]);
  const body = z.strictObject({ name: z.string().regex(MCP_SERVER_NAME).describe(MCP_SERVER_NAME_RULE), config });
  const opts = { target: 'openapi-3.0', unrepresentable: 'any' } as const;
  return {
    body: z.toJSONSchema(body, { ...opts, io: 'input' }) as Record<string, unknown>,
    // shown back: env and header values redacted, and stdio configs from before HTTP servers have no transport
    config: z.toJSONSchema(config, { ...opts, io: 'output' }) as Record<string, unknown>,
  };
}
