// OTLP export end to end: the built CLI runs scripted sessions with OTEL_EXPORTER_OTLP_ENDPOINT
// pointing at a receiver in this test, which decodes exactly what the exporter sends over HTTP (by the
// OTLP/JSON rules). Each session's trace is checked against the Postgres rows of the same session:
// the span tree, the GenAI names and attributes, and the trace and span ids every row carries.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from 'pg';
import { decodeOtlpJsonTraces, startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../support/otlp-receiver';
import { ROOT, runCli } from '../support/run-cli';
import { createTestDatabase } from '../support/test-app';

const SCENARIOS = [
  path.join(ROOT, 'scenarios', 'direct-process', 'normal-tool-loop-completion.yaml'),
  path.join(ROOT, 'scenarios', 'direct-process', 'repeat-detection-breaks-loop.yaml'),
  path.join(ROOT, 'scenarios', 'ollama-provider', 'retry-on-transient-error.yaml'),
];

interface SessionRow {
  id: string;
  model: string;
  agent: string;
  trace_id: string;
  span_id: string;
  termination_reason: string;
  input_tokens: number;
  output_tokens: number;
  iterations: number;
  profile: string;
}

const ns = (ms: number) => BigInt(Math.round(ms * 1e6));

/** The span tree as a trace view shows it: name, kind, offset and duration from the root, span events. */
function renderTree(spans: ReceivedSpan[], root: ReceivedSpan): string {
  const ms = (n: bigint) => (Number(n) / 1e6).toFixed(1);
  const lines: string[] = [];
  const walk = (s: ReceivedSpan, depth: number) => {
    const events = s.events.length ? `  events: ${s.events.map((e) => e.name).join(', ')}` : '';
    lines.push(`${'  '.repeat(depth)}${s.name} [${s.kind}] +${ms(s.startNs - root.startNs)} ms, ${ms(s.endNs - s.startNs)} ms${events}`);
    for (const c of spans.filter((x) => x.parentSpanId === s.spanId).sort((a, b) => Number(a.startNs - b.startNs))) walk(c, depth + 1);
  };
  walk(root, 0);
  return lines.join('\n');
}

describe('OTLP/HTTP export (built CLI → a receiver decoding OTLP/JSON)', () => {
  let tmp: string;
  let db: Client;
  let receiver: OtlpReceiver;
  let sessions: SessionRow[];

  beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-otlp-'));
    receiver = await startOtlpReceiver();
    const env = { DATABASE_URL: await createTestDatabase(), LOUPE_HOME: path.join(tmp, 'home'), OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url };
    const run = await runCli(['eval', ...SCENARIOS, '--json'], env, { timeoutMs: 120_000 });
    if (run.code !== 0) throw new Error(`loupe eval exited ${run.code}: ${run.stderr}`);
    db = new Client({ connectionString: env.DATABASE_URL });
    await db.connect();
    sessions = (
      await db.query<SessionRow>(
        `SELECT id, model, agent, trace_id, span_id, termination_reason, input_tokens, output_tokens, iterations,
                config->>'profile' AS profile
           FROM sessions ORDER BY started_at`,
      )
    ).rows;
  }, 180_000);

  afterAll(async () => {
    await db?.end();
    await receiver?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('receives every batch as OTLP/JSON POSTed to /v1/traces, and decodes all of it', () => {
    expect(receiver.errors).toEqual([]);
    expect(receiver.requests.length).toBeGreaterThan(0);
    for (const r of receiver.requests) expect(r).toEqual(expect.objectContaining({ method: 'POST', path: '/v1/traces' }));
    expect(receiver.requests[0].contentType).toMatch(/^application\/json/);
    // 3 scenarios: two under their two profiles (corvid, loupe), the repeat one under loupe alone
    expect(sessions).toHaveLength(5);
  });

  it('sends one trace per session, rooted at invoke_agent with the session row’s trace and span id', () => {
    for (const s of sessions) {
      const spans = receiver.spans.filter((x) => x.traceId === s.trace_id);
      const roots = spans.filter((x) => x.parentSpanId === '');
      expect(roots).toHaveLength(1);
      const [root] = roots;
      expect(root.spanId).toBe(s.span_id);
      expect(root).toEqual(
        expect.objectContaining({
          name: `invoke_agent ${s.agent}`,
          kind: 'INTERNAL',
          scope: 'loupe',
          resource: expect.objectContaining({ 'service.name': 'loupe' }),
        }),
      );
      expect(root.attributes).toEqual(
        expect.objectContaining({
          'gen_ai.operation.name': 'invoke_agent',
          'gen_ai.provider.name': 'ollama',
          'gen_ai.agent.name': s.agent,
          'gen_ai.conversation.id': s.id,
          'gen_ai.request.model': s.model,
          'gen_ai.usage.input_tokens': s.input_tokens,
          'gen_ai.usage.output_tokens': s.output_tokens,
          'loupe.session.id': s.id,
          'loupe.profile': s.profile,
          'loupe.termination_reason': s.termination_reason,
        }),
      );
      // every span of the trace hangs off the root
      const ids = new Set(spans.map((x) => x.spanId));
      for (const x of spans) if (x !== root) expect(ids.has(x.parentSpanId)).toBe(true);
    }
    const traceIds = new Set(sessions.map((s) => s.trace_id));
    expect(traceIds.size).toBe(sessions.length);
    // what a trace view (Tempo) shows for one session, kept for the record
    const shown = sessions.find((s) => s.profile === 'loupe' && s.termination_reason === 'completed' && s.iterations === 4)!;
    const spans = receiver.spans.filter((x) => x.traceId === shown.trace_id);
    fs.mkdirSync(path.join(ROOT, 'test-output'), { recursive: true });
    fs.writeFileSync(
      path.join(ROOT, 'test-output', 'otlp-session-trace.txt'),
      `${renderTree(
        spans,
        spans.find((x) => x.parentSpanId === '')!,
      )}\n`,
    );
  });

  it('has slot_wait and one agent_turn per iteration row under the root, with the row’s span id and latency split', async () => {
    for (const s of sessions) {
      const spans = receiver.spans.filter((x) => x.traceId === s.trace_id);
      const children = spans.filter((x) => x.parentSpanId === s.span_id);
      expect(children.filter((x) => x.name === 'slot_wait')).toHaveLength(1);
      const turns = children.filter((x) => x.name === 'agent_turn');
      const rows = (
        await db.query(
          `SELECT idx, span_id, trace_id, input_tokens, output_tokens, load_ms, prefill_ms, decode_ms, first_token_ms, wall_ms
             FROM iterations WHERE session_id = $1 ORDER BY idx`,
          [s.id],
        )
      ).rows;
      expect(rows).toHaveLength(s.iterations);
      expect(turns.map((t) => t.spanId).sort()).toEqual(rows.map((r) => r.span_id).sort());
      for (const r of rows) {
        const turn = turns.find((t) => t.spanId === r.span_id)!;
        expect(r.trace_id).toBe(s.trace_id);
        expect(turn.attributes['loupe.turn.index']).toBe(r.idx);
        expect(turn.attributes).toEqual(
          expect.objectContaining({
            'gen_ai.usage.input_tokens': r.input_tokens,
            'gen_ai.usage.output_tokens': r.output_tokens,
            'loupe.latency.wall_ms': r.wall_ms,
            'loupe.latency.first_token_ms': r.first_token_ms,
          }),
        );
        expect(Math.round(Number(turn.attributes['loupe.ollama.load_ms']))).toBe(r.load_ms);
        expect(Math.round(Number(turn.attributes['loupe.ollama.prompt_eval_ms']))).toBe(r.prefill_ms);
        expect(Math.round(Number(turn.attributes['loupe.ollama.eval_ms']))).toBe(r.decode_ms);
        expect('gen_ai.agent.turn.index' in turn.attributes).toBe(false); // a proposal, not a v1.41 name
      }
    }
  });

  it('puts a chat {model} CLIENT span in each iteration, with the GenAI request and response attributes', async () => {
    for (const s of sessions) {
      const spans = receiver.spans.filter((x) => x.traceId === s.trace_id);
      const rows = (
        await db.query(`SELECT span_id, input_tokens, output_tokens, finish_reason FROM iterations WHERE session_id = $1`, [s.id])
      ).rows;
      const host = (await db.query(`SELECT config->>'host' AS host FROM sessions WHERE id = $1`, [s.id])).rows[0].host as string;
      for (const r of rows) {
        const chats = spans.filter((x) => x.parentSpanId === r.span_id && x.name.startsWith('chat '));
        expect(chats).toHaveLength(1);
        const [chat] = chats;
        expect(chat.name).toBe(`chat ${s.model}`);
        expect(chat.kind).toBe('CLIENT');
        expect(chat.attributes).toEqual(
          expect.objectContaining({
            'gen_ai.operation.name': 'chat',
            'gen_ai.provider.name': 'ollama',
            'gen_ai.request.model': s.model,
            'gen_ai.response.model': s.model,
            'gen_ai.request.stream': true,
            'gen_ai.response.finish_reasons': [r.finish_reason],
            'gen_ai.usage.input_tokens': r.input_tokens,
            'gen_ai.usage.output_tokens': r.output_tokens,
            'server.address': new URL(host).hostname,
            'server.port': Number(new URL(host).port),
          }),
        );
        expect(typeof chat.attributes['gen_ai.response.time_to_first_chunk']).toBe('number'); // seconds, a double
      }
    }
  });

  it('lays Ollama’s load, prefill and decode out as child spans of each chat span, end to end, within it', () => {
    let checked = 0;
    for (const chat of receiver.spans.filter((x) => x.name.startsWith('chat '))) {
      const phases = receiver.spans.filter((x) => x.parentSpanId === chat.spanId).sort((a, b) => Number(a.startNs - b.startNs));
      const names = phases.map((p) => p.name);
      expect(names.filter((n) => n !== 'ollama queue')).toEqual(['ollama load', 'ollama prefill', 'ollama decode']);
      for (const p of phases) {
        expect(p.kind).toBe('INTERNAL');
        expect(p.attributes['loupe.ollama.phase']).toBe(p.name.slice('ollama '.length));
        expect(p.startNs).toBeGreaterThanOrEqual(chat.startNs);
        expect(p.endNs).toBeLessThanOrEqual(chat.endNs);
      }
      for (let i = 1; i < phases.length; i++) expect(phases[i].startNs).toBe(phases[i - 1].endNs);
      expect(phases[phases.length - 1].endNs).toBe(chat.endNs);
      // each phase lasts what Ollama reported (µs rounding of the exported times)
      const decode = phases.find((p) => p.name === 'ollama decode')!;
      const reported = ns(Number(chat.attributes['loupe.ollama.eval_ms']));
      const lasted = decode.endNs - decode.startNs;
      expect(lasted <= reported + 2000n && lasted + 2000n >= reported).toBe(true);
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(6);
  });

  it('puts each tool call under its iteration as execute_tool, the span its row carries', async () => {
    const rows = (
      await db.query(
        `SELECT t.id, t.name, t.span_id, t.trace_id, t.status, i.span_id AS iteration_span, s.trace_id AS session_trace
           FROM tool_calls t JOIN iterations i ON i.session_id = t.session_id AND i.idx = t.iteration
           JOIN sessions s ON s.id = t.session_id`,
      )
    ).rows;
    expect(rows.length).toBeGreaterThanOrEqual(9);
    for (const r of rows) {
      expect(r.trace_id).toBe(r.session_trace);
      const span = receiver.spans.find((x) => x.traceId === r.trace_id && x.spanId === r.span_id)!;
      expect(span).toBeDefined();
      expect(span.name).toBe(`execute_tool ${r.name}`);
      expect(span.parentSpanId).toBe(r.iteration_span);
      expect(span.attributes).toEqual(
        expect.objectContaining({
          'gen_ai.operation.name': 'execute_tool',
          'gen_ai.tool.name': r.name,
          'gen_ai.tool.call.id': r.id,
          'gen_ai.tool.type': 'function',
        }),
      );
    }
  });

  it('points every event and message row at a span of its session’s trace, and loop decisions are events on that span', async () => {
    const byId = new Map(receiver.spans.map((x) => [`${x.traceId}/${x.spanId}`, x]));
    for (const s of sessions) {
      const events = (await db.query(`SELECT type, trace_id, span_id FROM events WHERE session_id = $1 ORDER BY seq`, [s.id])).rows;
      const messages = (await db.query(`SELECT trace_id, span_id FROM messages WHERE session_id = $1`, [s.id])).rows;
      for (const row of [...events, ...messages]) {
        expect(row.trace_id).toBe(s.trace_id);
        expect(byId.has(`${row.trace_id}/${row.span_id}`)).toBe(true);
      }
      // what happened inside an iteration (or while waiting for the slot) is also a span event
      for (const e of events) {
        const span = byId.get(`${e.trace_id}/${e.span_id}`)!;
        if (span.name === 'agent_turn' || span.name === 'slot_wait') expect(span.events.map((x) => x.name)).toContain(e.type);
      }
    }
    const repeat = sessions.find((s) => s.termination_reason === 'repeat_break')!;
    const turns = receiver.spans.filter((x) => x.traceId === repeat.trace_id && x.name === 'agent_turn');
    const breakEvent = turns.flatMap((t) => t.events).find((e) => e.name === 'repeat_break')!;
    expect(breakEvent.attributes).toEqual(expect.objectContaining({ kind: 'repeat_break', count: 3 }));
    const retried = sessions.filter((s) =>
      receiver.spans.some((x) => x.traceId === s.trace_id && x.events.some((e) => e.name === 'inference_retry')),
    );
    expect(retried.length).toBe(2);
    for (const s of retried) {
      const chat = receiver.spans.find((x) => x.traceId === s.trace_id && x.events.some((e) => e.name === 'inference_retry'))!;
      expect(chat.name).toBe(`chat ${s.model}`);
    }
  });

  it('refuses what OTLP/JSON does not allow: base64 ids, enum names, two values in one AnyValue', () => {
    const span = (over: Record<string, unknown>) => ({
      resourceSpans: [
        {
          scopeSpans: [
            { spans: [{ traceId: '5b8efff798038103d269b633813fc60c', spanId: 'eee19b7ec3c1b174', name: 'x', kind: 1, ...over }] },
          ],
        },
      ],
    });
    expect(decodeOtlpJsonTraces(span({}))).toHaveLength(1);
    expect(() => decodeOtlpJsonTraces(span({ traceId: 'W47/95gDgQPSabYzgT/GDA==' }))).toThrow(/traceId: expected 32 hex digits/);
    expect(() => decodeOtlpJsonTraces(span({ kind: 'SPAN_KIND_INTERNAL' }))).toThrow(/kind: expected an enum integer/);
    expect(() => decodeOtlpJsonTraces(span({ attributes: [{ key: 'a', value: { stringValue: 'x', intValue: '1' } }] }))).toThrow(
      /exactly one value/,
    );
    expect(() => decodeOtlpJsonTraces(span({ startTimeUnixNano: '1.5' }))).toThrow(/64-bit integer/);
  });
});
