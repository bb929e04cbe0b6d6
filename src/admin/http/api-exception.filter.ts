// Catches everything an HTTP handler, guard or pipe throws and answers in the one error shape
// (./error-mapping). HTTP only: Nest applies no global filter to gateways, whose handlers answer their
// own errors with the same mapping (live/client-messages.ts: acknowledgements, and `error` events).
import { type ArgumentsHost, Catch, type ExceptionFilter, Inject, Logger } from '@nestjs/common';
import { LOUPE_CONFIG } from '../../config/config.module';
import type { LoupeConfig } from '../../config/loupe-config';
import { CORRELATION_HEADER, correlationIdOf } from './correlation-id';
import { mapError } from './error-mapping';

interface HttpResponse {
  headersSent: boolean;
  setHeader(name: string, value: string): void;
  status(code: number): { json(body: unknown): void };
}

@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('Api');

  constructor(@Inject(LOUPE_CONFIG) private readonly config: LoupeConfig) {}

  catch(e: unknown, host: ArgumentsHost): void {
    if (host.getType() !== 'http') {
      // only a gateway that opted in with @UseFilters gets here, and nothing here can answer it
      this.logger.error(`${host.getType()} handler failed outside the HTTP API: ${(e as Error)?.stack ?? String(e)}`);
      return;
    }
    const http = host.switchToHttp();
    const req = http.getRequest<Parameters<typeof correlationIdOf>[0] & { method?: string; url?: string }>();
    const res = http.getResponse<HttpResponse>();
    const correlationId = correlationIdOf(req);
    const mapped = mapError(e, { maxBodyBytes: this.config.api.maxBodyBytes });
    if (mapped.unexpected) {
      this.logger.error(`${req.method} ${req.url} failed [${correlationId}]: ${(e as Error)?.stack ?? String(e)}`);
    }
    if (res.headersSent) return;
    res.setHeader(CORRELATION_HEADER, correlationId);
    res.status(mapped.status).json({ ...mapped.body, correlationId });
  }
}
