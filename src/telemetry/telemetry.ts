// OpenTelemetry start-up, before Nest. Spans always get real trace/span ids (the journal stores them
// on every row); they leave the process only when OTEL_EXPORTER_OTLP_ENDPOINT is set. With nowhere to
// go (no endpoint, no processor) they are not recorded at all: the SDK still gives each one its ids,
// so the journal's rows are the same, without building attributes and timings no one will read.
import { context, propagation, trace, type Tracer } from '@opentelemetry/api';
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
  const processors: SpanProcessor[] = [new IdOnlyProcessor(), ...(options.spanProcessors ?? [])];
  const serviceName = options.serviceName ?? 'loupe';
  // Loaded here, not at the top, and only what is needed: commands that only read Postgres never
  // start tracing, and without an exporter the Node tracer provider alone gives spans their real
  // ids (the SDK, which loads every exporter it can configure, takes over a second to load).
  /* eslint-disable @typescript-eslint/no-require-imports */
  if (!options.otlpEndpoint) {
    const { AlwaysOffSampler, NodeTracerProvider } =
      require('@opentelemetry/sdk-trace-node') as typeof import('@opentelemetry/sdk-trace-node');
    const { resourceFromAttributes } = require('@opentelemetry/resources') as typeof import('@opentelemetry/resources');
    const provider = new NodeTracerProvider({
      resource: resourceFromAttributes({ 'service.name': serviceName }),
      spanProcessors: processors,
      ...(options.spanProcessors?.length ? {} : { sampler: new AlwaysOffSampler() }),
    });
    provider.register();
    return (current = {
      tracer: trace.getTracer(TRACER_NAME),
      exporting: false,
      shutdown: async () => {
        current = undefined;
        await provider.shutdown();
        trace.disable();
        context.disable();
        propagation.disable();
      },
    });
  }
  const { NodeSDK } = require('@opentelemetry/sdk-node') as typeof import('@opentelemetry/sdk-node');
  const { BatchSpanProcessor } = require('@opentelemetry/sdk-trace-base') as typeof import('@opentelemetry/sdk-trace-base');
  const { OTLPTraceExporter } =
    require('@opentelemetry/exporter-trace-otlp-http') as typeof import('@opentelemetry/exporter-trace-otlp-http');
  /* eslint-enable @typescript-eslint/no-require-imports */
  const base = options.otlpEndpoint.replace(/\/+$/, '');
  const url = base.endsWith('/v1/traces') ? base : `${base}/v1/traces`;
  processors.push(new BatchSpanProcessor(new OTLPTraceExporter({ url })));
  const sdk = new NodeSDK({
    serviceName,
    spanProcessors: processors,
    logRecordProcessors: [],
    instrumentations: [],
    autoDetectResources: false,
  });
  sdk.start();
  current = {
    tracer: trace.getTracer(TRACER_NAME),
    exporting: true,
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
