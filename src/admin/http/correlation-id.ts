// Every request carries a correlation id: the caller's `X-Correlation-Id` when it is a sane token,
// else a fresh one. It is echoed in the response header and in every error body, and logged with
// unexpected errors, so a report from a user finds its log line.
import { randomUUID } from 'node:crypto';

export const CORRELATION_HEADER = 'x-correlation-id';
const SANE = /^[\w.:-]{1,64}$/;

interface CorrelatedRequest {
  headers: Record<string, string | string[] | undefined>;
  correlationId?: string;
}

export function correlationIdOf(req: CorrelatedRequest): string {
  if (!req.correlationId) {
    const given = req.headers[CORRELATION_HEADER];
    req.correlationId = typeof given === 'string' && SANE.test(given) ? given : randomUUID();
  }
  return req.correlationId;
}

/** Express middleware: assigns the id and echoes it before any handler (or error) answers. */
export function correlationMiddleware(
  req: CorrelatedRequest,
  res: { setHeader(name: string, value: string): void },
  next: () => void,
): void {
  res.setHeader(CORRELATION_HEADER, correlationIdOf(req));
  next();
}
