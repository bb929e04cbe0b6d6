// OpenTelemetry start-up, before Nest. Spans always get real trace/span ids (the journal stores them
// on every row); they leave the process only when OTEL_EXPORTER_OTLP_ENDPOINT is set.
import { trace, type Tracer } from '@opentelemetry/api';
import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';

export const TRACER_NAME = 'loupe';

export interface TelemetryOptions {
  otlpEndpoint?: string;
  /** extra processors, e.g. an in-memory exporter in tests */
  spanProcessors?: SpanProcessor[];
  serviceName?: string;
}

export interface TelemetryHandle {
  tracer: Tracer;
  exporting: boolean;
  shutdown(): Promise<void>;
}

let current: TelemetryHandle | undefined;

/** Never-exporting processor so a tracer provider (and thus real ids) exists without an endpoint. */
class IdOnlyProcessor implements SpanProcessor {
  onStart(): void {}
  onEnd(): void {}
  forceFlush(): Promise<void> {
    return Promise.resolve();
  }
  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

export function startTelemetry(options: TelemetryOptions = {}): TelemetryHandle {
  if (current) return current;
  // Loaded here, not at the top: the SDK takes about a second to load, and commands that only read
  // Postgres (sessions list/show) never start it.
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { NodeSDK } = require('@opentelemetry/sdk-node') as typeof import('@opentelemetry/sdk-node');
  const { BatchSpanProcessor } = require('@opentelemetry/sdk-trace-base') as typeof import('@opentelemetry/sdk-trace-base');
  const { OTLPTraceExporter } =
    require('@opentelemetry/exporter-trace-otlp-http') as typeof import('@opentelemetry/exporter-trace-otlp-http');
  /* eslint-enable @typescript-eslint/no-require-imports */
  const processors: SpanProcessor[] = [new IdOnlyProcessor(), ...(options.spanProcessors ?? [])];
  if (options.otlpEndpoint) {
    const base = options.otlpEndpoint.replace(/\/+$/, '');
    const url = base.endsWith('/v1/traces') ? base : `${base}/v1/traces`;
    processors.push(new BatchSpanProcessor(new OTLPTraceExporter({ url })));
  }
  const sdk = new NodeSDK({
    serviceName: options.serviceName ?? 'loupe',
    spanProcessors: processors,
    logRecordProcessors: [],
    instrumentations: [],
    autoDetectResources: false,
  });
  sdk.start();
  current = {
    tracer: trace.getTracer(TRACER_NAME),
    exporting: Boolean(options.otlpEndpoint),
    shutdown: async () => {
      current = undefined;
      await sdk.shutdown();
    },
  };
  return current;
}

export function getTracer(): Tracer {
  return current?.tracer ?? trace.getTracer(TRACER_NAME);
}
