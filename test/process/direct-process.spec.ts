// The process handle (spec: pid, sendMessage, kill) and what a kill does on the wire, checked
// against the stand-in's own request log, plus loop decisions as span events.
import { randomUUID } from 'node:crypto';
import { JournalService } from '../../src/journal/journal.service';
import { SessionQueryRepository } from '../../src/journal/session-query.repository';
import { ProcessManager } from '../../src/process/process-manager.service';
import { FIRST_PSEUDO_PID } from '../../src/process/pseudo-pid';
import { OllamaProviderFactory } from '../../src/provider/ollama/ollama-provider.factory';
import { StandinServer } from '../../src/standin/standin-server';
import type { StandinTurn } from '../../src/standin/standin-script';
import { ToolsService } from '../../src/tools/tools.service';
import { createWorkspace } from '../../src/tools/workspace/workspace-manager';
import { createTestApp, spanExporter, type TestApp } from '../support/test-app';

describe('direct process (handle, kill, spans)', () => {
  let t: TestApp;
  let standin: StandinServer;
  const started: StandinServer[] = [];
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });
  afterEach(async () => {
    await Promise.all(started.splice(0).map((s) => s.stop()));
  });

  async function start(turns: StandinTurn[], files: Record<string, string> = {}) {
    standin = new StandinServer({ script: { turns: { '*': turns } } });
    started.push(standin);
    const { url } = await standin.start(0);
    const sessionId = randomUUID();
    const workspaceDir = await createWorkspace(t.home, sessionId, files);
    const tools = await t.app.get(ToolsService).createSessionTools({ workspaceDir });
    const provider = t.app.get(OllamaProviderFactory).forHost(url, { isolated: true });
    const handle = t.app.get(ProcessManager).start({ sessionId, model: 'llama3.1:8b', prompt: 'Go.', provider, tools, workspaceDir });
    void handle.done.finally(() => tools.close());
    return handle;
  }

  it('hands out pseudo-pids from 800000 and refuses messages after the session ended', async () => {
    const a = await start([{ content: 'Done.' }]);
    expect(a.pid).toBeGreaterThanOrEqual(FIRST_PSEUDO_PID);
    const result = await a.done;
    expect(result).toEqual(
      expect.objectContaining({
        sessionId: a.sessionId,
        pid: a.pid,
        terminationReason: 'completed',
        exitCode: 0,
        finalAnswer: 'Done.',
        iterations: 1,
      }),
    );
    expect(() => a.sendMessage('late')).toThrow(/has finished/);
    const b = await start([{ content: 'Done.' }]);
    expect(b.pid).toBeGreaterThan(a.pid);
    await b.done;
  });

  it('a kill mid-inference cancels the HTTP request itself, before any header arrived', async () => {
    const handle = await start([{ content: 'Hello.', fault: { kind: 'delay_first_byte', ms: 20_000 } }]);
    await standin.waitForRequests((reqs) => reqs.some((r) => r.path === '/api/chat'), 5_000);
    handle.kill();
    const result = await handle.done;
    expect(result.terminationReason).toBe('aborted');
    await standin.settled(5_000);
    const chat = standin.requests.filter((r) => r.path === '/api/chat');
    expect(chat).toHaveLength(1);
    expect(chat[0].cancelled).toBe(true);
    await t.app.get(JournalService).flush();
    const detail = await t.app.get(SessionQueryRepository).getSessionDetail(handle.sessionId);
    const types = detail!.events.map((e) => e.type);
    expect(types).toContain('slot_released');
    expect(detail!.iterations[0].status).toBe('aborted');
  });

  it('puts each loop decision on its iteration span as an event, with its evidence', async () => {
    spanExporter.reset();
    const read = { toolCalls: [{ name: 'read_file', arguments: { path: 'x.ts' } }] };
    const handle = await start([read, read, read, { content: 'Summary.' }], { 'x.ts': 'x' });
    expect((await handle.done).terminationReason).toBe('repeat_break');
    const spans = spanExporter.getFinishedSpans();
    const turns = spans.filter((s) => s.name === 'agent_turn');
    const withBreak = turns.find((s) => s.events.some((e) => e.name === 'repeat_break'))!;
    expect(withBreak).toBeDefined();
    const event = withBreak.events.find((e) => e.name === 'repeat_break')!;
    expect(event.attributes).toEqual(expect.objectContaining({ kind: 'repeat_break', count: 3, key: 'read_file:{"path":"x.ts"}' }));
    expect(withBreak.attributes['loupe.turn.index']).toBe(2);
    const epilogue = turns.find((s) => s.attributes['loupe.iteration.purpose'] === 'epilogue')!;
    expect(epilogue.events.map((e) => e.name)).toContain('summary_epilogue');
    const root = spans.find((s) => s.name === 'invoke_agent loupe' && s.attributes['gen_ai.conversation.id'] === handle.sessionId)!;
    expect(root.attributes['loupe.termination_reason']).toBe('repeat_break');
    for (const s of turns) expect(s.parentSpanContext?.spanId).toBe(root.spanContext().spanId);
  });
});
