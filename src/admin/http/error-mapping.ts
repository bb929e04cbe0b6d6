// The one place where errors become HTTP answers. Every error body has the same shape — status,
// its name, a message, field errors where the input was at fault, and the request's correlation id —
// and none reveals a host path or a stack: unexpected errors are logged with their stack and
// answered as a bare 500.
import { HttpException, HttpStatus } from '@nestjs/common';
import {
  ConflictError,
  InvalidRequestError,
  NotFoundError,
  SessionExpiredError,
  UnavailableError,
  type FieldError,
} from '../../common/request-errors';
import { McpServerExistsError, McpServerInvalidError, McpServerNotFoundError } from '../../tools/external-mcp-errors';

export interface ErrorBody {
  statusCode: number;
  error: string;
  message: string;
  errors?: FieldError[];
  /** the taken name of a 409 from the MCP registry */
  name?: string;
  /** the expired session of a 410 */
  sessionId?: string;
  correlationId: string;
}

export interface MappedError {
  status: number;
  body: Omit<ErrorBody, 'correlationId'>;
  /** unexpected: log it with its stack */
  unexpected: boolean;
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  410: 'Gone',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

export const statusText = (status: number): string => STATUS_TEXT[status] ?? (status >= 500 ? 'Server Error' : 'Client Error');

function answer(status: number, message: string, extra: Partial<ErrorBody> = {}): MappedError {
  return { status, body: { statusCode: status, error: statusText(status), message, ...extra }, unexpected: false };
}

/** body-parser's errors (http-errors): a `type` and a status, and messages we do not pass on */
function bodyParserError(e: unknown, maxBodyBytes: number): MappedError | undefined {
  const type = (e as { type?: unknown })?.type;
  if (typeof type !== 'string') return undefined;
  if (type === 'entity.too.large') return answer(413, `request body too large (limit ${maxBodyBytes} bytes)`);
  if (type === 'entity.parse.failed') return answer(400, 'malformed JSON body');
  if (type === 'encoding.unsupported' || type === 'charset.unsupported') return answer(415, 'unsupported body encoding');
  const status = (e as { status?: unknown }).status;
  if (typeof status === 'number' && status >= 400 && status < 500) return answer(status, 'the request body could not be read');
  return undefined;
}

/** A Nest HttpException: our own messages (guards, pipes, the validation pipe's field errors). */
function httpException(e: HttpException): MappedError {
  const status = e.getStatus();
  const response = e.getResponse();
  if (typeof response === 'string') return answer(status, response);
  const r = response as { message?: unknown; errors?: FieldError[] };
  const message = Array.isArray(r.message) ? r.message.join('; ') : typeof r.message === 'string' ? r.message : e.message;
  return answer(status, status >= 500 ? statusText(status) : message, r.errors ? { errors: r.errors } : {});
}

export function mapError(e: unknown, opts: { maxBodyBytes: number }): MappedError {
  if (e instanceof InvalidRequestError) return answer(400, e.summary, { errors: e.errors });
  if (e instanceof McpServerInvalidError) return answer(400, 'invalid MCP server', { errors: e.errors });
  if (e instanceof NotFoundError || e instanceof McpServerNotFoundError) return answer(404, e.message);
  if (e instanceof McpServerExistsError) return answer(409, e.message, { name: e.serverName });
  if (e instanceof ConflictError) return answer(409, e.message);
  if (e instanceof SessionExpiredError) return answer(410, e.message, { sessionId: e.sessionId });
  if (e instanceof UnavailableError) return answer(503, e.message);
  if (e instanceof HttpException) return httpException(e);
  const parser = bodyParserError(e, opts.maxBodyBytes);
  if (parser) return parser;
  return {
    status: HttpStatus.INTERNAL_SERVER_ERROR,
    body: { statusCode: 500, error: statusText(500), message: 'internal error' },
    unexpected: true,
  };
}
