// Catches everything an HTTP handler, guard or pipe throws and answers in the one error shape
// (./error-mapping). WebSocket handlers answer their own errors (acknowledgements and `error` events).
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
      // a gateway handler that threw: the same mapping, as Nest's `exception` event
      const mapped = mapError(e, { maxBodyBytes: this.config.api.maxBodyBytes });
      if (mapped.unexpected) this.logger.error(`WebSocket handler failed: ${(e as Error)?.stack ?? String(e)}`);
      host.switchToWs().getClient<{ emit(event: string, body: unknown): void }>().emit('exception', mapped.body);
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
