// Model management through ModelsService against a stand-in at OLLAMA_HOST: what it returns and
// what it records (host-level model_pull / model_deleted events with trace ids).
import { JournalService } from '../../src/journal/journal.service';
import { SessionQueryRepository } from '../../src/journal/session-query.repository';
import { ModelsService } from '../../src/provider/models.service';
import { OllamaProvider } from '../../src/provider/ollama/ollama-provider';
import { DEFAULT_CATALOG } from '../../src/standin/standin-catalog';
import { StandinServer } from '../../src/standin/standin-server';
import { createTestApp, type TestApp } from '../support/test-app';

describe('ModelsService (pull, delete, list) with host-level journal events', () => {
  let standin: StandinServer;
  let t: TestApp;
  beforeAll(async () => {
    standin = new StandinServer({
      catalog: [
        ...DEFAULT_CATALOG,
        { name: 'phi4:14b', family: 'phi3', parameterSize: '14.7B', capabilities: ['completion'], installed: false },
      ],
      pull: { stepMs: 1, progressSteps: 4 },
    });
    const { url } = await standin.start(0);
    t = await createTestApp({ OLLAMA_HOST: url, OLLAMA_LOCAL_HOST: url });
  });
  afterAll(async () => {
    await t.close();
    await standin.stop();
  });

  it('lists installed models with details and capabilities', async () => {
    const list = await t.app.get(ModelsService).list();
    const qwen = list.find((m) => m.name === 'qwen3:8b')!;
    expect(qwen).toEqual(expect.objectContaining({ family: 'qwen3', parameterSize: '8.2B', cloud: false, loaded: false }));
    expect(qwen.capabilities).toEqual(expect.arrayContaining(['tools', 'thinking']));
    expect(list.map((m) => m.name)).not.toContain('phi4:14b');
  });

  it('pulls with progress, journals model_pull events, and lists the model afterwards', async () => {
    const seen: string[] = [];
    const final = await t.app.get(ModelsService).pull('phi4:14b', (s) => seen.push(s.status));
    expect(final).toEqual(expect.objectContaining({ model: 'phi4:14b', status: 'success', percent: 100 }));
    expect(seen[0]).toBe('pulling manifest');
    expect(seen).toContain('verifying sha256 digest');
    await t.app.get(JournalService).flush();
    const events = (await t.app.get(SessionQueryRepository).hostEvents()).filter((e) => e.type === 'model_pull').reverse();
    expect(events.map((e) => e.payload.status)).toEqual(expect.arrayContaining(['pulling manifest', 'success']));
    expect(events.at(-1)!.payload).toEqual(expect.objectContaining({ model: 'phi4:14b', status: 'success', percent: 100 }));
    expect(events.every((e) => e.sessionId === null && /^[0-9a-f]{32}$/.test(e.traceId) && e.traceId !== '0'.repeat(32))).toBe(true);
    expect((await t.app.get(ModelsService).list()).map((m) => m.name)).toContain('phi4:14b');
  });

  it('records a failed pull with its error', async () => {
    await expect(t.app.get(ModelsService).pull('nosuch:1b')).rejects.toThrow(/file does not exist|not found/);
    await t.app.get(JournalService).flush();
    const failed = (await t.app.get(SessionQueryRepository).hostEvents()).find(
      (e) => e.type === 'model_pull' && e.payload.model === 'nosuch:1b' && e.payload.status === 'error',
    );
    expect(failed?.payload.error).toEqual(expect.stringMatching(/file does not exist/));
  });

  it('deletes a model and records it', async () => {
    expect(await t.app.get(ModelsService).remove('phi4:14b')).toEqual({ success: true });
    expect(await t.app.get(ModelsService).remove('phi4:14b')).toEqual({ success: false, error: expect.stringMatching(/not found/) });
    await t.app.get(JournalService).flush();
    const deleted = (await t.app.get(SessionQueryRepository).hostEvents()).filter((e) => e.type === 'model_deleted');
    expect(deleted.map((e) => e.payload.success)).toEqual([false, true]);
  });
});

describe("OllamaProvider exposes the spec's model-management API", () => {
  it('delegates refreshModels, getModelDetails, getRunningModels, pullModel, deleteModel, getActivePulls, getPullStatus', async () => {
    const standin = new StandinServer({
      catalog: [
        ...DEFAULT_CATALOG,
        { name: 'tiny:1b', family: 'llama', parameterSize: '1B', capabilities: ['completion'], installed: false },
      ],
      pull: { stepMs: 1, progressSteps: 2 },
    });
    const { url } = await standin.start(0);
    try {
      const p = new OllamaProvider({
        host: url,
        localHost: url,
        requestTimeoutMs: 5000,
        idleTimeoutMs: 5000,
        firstByteTimeoutMs: 5000,
        numGpu: -1,
        numPredict: 64,
        numBatch: 512,
        slotWaitTimeoutMs: 5000,
      });
      expect(await p.refreshModels()).toContain('llama3.1:8b');
      expect((await p.getModelDetails()).find((m) => m.name === 'qwen3:8b')?.family).toBe('qwen3');
      expect(await p.getRunningModels()).toEqual([]);
      const progress: string[] = [];
      await p.pullModel('tiny:1b', (s) => progress.push(s.status));
      expect(progress.at(-1)).toBe('success');
      expect(p.getPullStatus('tiny:1b')?.status).toBe('success');
      expect(p.getActivePulls().map((s) => s.model)).toContain('tiny:1b');
      expect(await p.deleteModel('tiny:1b')).toEqual({ success: true });
      p.models.dispose();
    } finally {
      await standin.stop();
    }
  });
});
