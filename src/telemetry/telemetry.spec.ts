import { context, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { startTelemetry } from './telemetry';

const ZERO_TRACE = '0'.repeat(32);

describe('startTelemetry', () => {
  afterEach(async () => {
    await startTelemetry().shutdown();
  });

  it('without an endpoint or processor, spans are not recorded but still get real ids, children inheriting the trace', () => {
    const { tracer, exporting } = startTelemetry();
    expect(exporting).toBe(false);
    const root = tracer.startSpan('root');
    const child = tracer.startSpan('child', {}, trace.setSpan(context.active(), root));
    expect(root.isRecording()).toBe(false);
    expect(root.spanContext().traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(root.spanContext().traceId).not.toBe(ZERO_TRACE);
    expect(root.spanContext().spanId).toMatch(/^[0-9a-f]{16}$/);
    expect(child.spanContext().traceId).toBe(root.spanContext().traceId);
    expect(child.spanContext().spanId).not.toBe(root.spanContext().spanId);
    child.end();
    root.end();
  });

  it('with a processor, spans are recorded and reach it', () => {
    const exporter = new InMemorySpanExporter();
    const { tracer } = startTelemetry({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const span = tracer.startSpan('recorded', { attributes: { a: 1 } });
    expect(span.isRecording()).toBe(true);
    span.end();
    expect(exporter.getFinishedSpans().map((s) => [s.name, s.attributes.a, s.spanContext().traceId])).toEqual([
      ['recorded', 1, span.spanContext().traceId],
    ]);
  });
});
