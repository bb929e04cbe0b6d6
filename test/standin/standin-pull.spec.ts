// POST /api/pull: Ollama's progress sequence, mid-stream errors, stream:false, installing.
import { Ollama, type ProgressResponse } from 'ollama';

import type { StandinModel } from '../../src/standin/standin-script';
import { DEFAULT_STANDIN_CATALOG } from '../../src/standin/standin-catalog';
import { post, readLines, rejection, startStandin, stopAll } from './standin-test-kit';

afterEach(stopAll);

const notInstalled: StandinModel = {
  name: 'phi3:mini',
  family: 'phi3',
  parameterSize: '3.8B',
  quantization: 'Q4_0',
  capabilities: ['completion'],
  sizeBytes: 2_176_178_913,
  installed: false,
};
const catalog = [...DEFAULT_STANDIN_CATALOG, notInstalled];

describe('/api/pull streaming', () => {
  it('emits manifest, per-layer progress, verify, write, success; the model is then listed', async () => {
    const { client } = await startStandin({ catalog, pull: { stepMs: 1, progressSteps: 3 } });
    expect((await client.list()).models.map((m) => m.name)).not.toContain('phi3:mini');
    const lines: ProgressResponse[] = [];
    for await (const p of await client.pull({ model: 'phi3:mini', stream: true })) lines.push(p);
    const statuses = lines.map((l) => l.status);
    expect(statuses[0]).toBe('pulling manifest');
    expect(statuses.slice(-3)).toEqual(['verifying sha256 digest', 'writing manifest', 'success']);
    const layers = lines.filter((l) => l.status.startsWith('pulling ') && l.status !== 'pulling manifest');
    expect(layers.length).toBe(3 + 3); // weights in 3 steps, then template, license, params
    for (const l of layers) {
      expect(l.status).toMatch(/^pulling [0-9a-f]{12}$/);
      expect(l.digest).toBe(`sha256:${l.digest.slice(7)}`);
      expect(l.digest.slice(7, 19)).toBe(l.status.slice(8));
      expect(l.total).toBeGreaterThan(0);
      expect(l.completed).toBeLessThanOrEqual(l.total);
    }
    const weights = layers.filter((l) => l.digest === layers[0].digest);
    expect(weights.map((l) => l.completed)).toEqual([...weights.map((l) => l.completed)].sort((a, b) => a - b));
    expect(weights[weights.length - 1].completed).toBe(weights[0].total);
    expect((await client.list()).models[0].name).toBe('phi3:mini'); // newest first
  });

  it('status-only lines omit digest/total/completed (Go omitempty); the client sends `name`', async () => {
    const { url, server } = await startStandin({ catalog });
    const res = await post(url, '/api/pull', { model: 'phi3:mini' });
    expect(res.headers.get('content-type')).toBe('application/x-ndjson');
    const { lines } = await readLines(res);
    expect(lines[0]).toBe('{"status":"pulling manifest"}');
    expect(lines[lines.length - 1]).toBe('{"status":"success"}');
    await new Ollama({ host: url }).pull({ model: 'qwen3:8b' });
    expect(server.requests[1].body).toEqual({ name: 'qwen3:8b', stream: false });
  });

  it('an unknown model fails mid-stream after "pulling manifest" with status 200', async () => {
    const { url, client } = await startStandin({ catalog });
    const res = await post(url, '/api/pull', { name: 'nosuch:model' });
    expect(res.status).toBe(200);
    const { objects } = await readLines(res);
    expect(objects).toEqual([{ status: 'pulling manifest' }, { error: 'pull model manifest: file does not exist' }]);
    const seen: string[] = [];
    const err = await rejection(
      (async () => {
        for await (const p of await client.pull({ model: 'nosuch:model', stream: true })) seen.push(p.status);
      })(),
    );
    expect(seen).toEqual(['pulling manifest']);
    expect((err as Error).message).toBe('pull model manifest: file does not exist');
  });

  it('an already installed model gets one finished line per layer', async () => {
    const { client } = await startStandin({ catalog });
    const lines: ProgressResponse[] = [];
    for await (const p of await client.pull({ model: 'qwen3:8b', stream: true })) lines.push(p);
    const layers = lines.filter((l) => l.digest);
    expect(layers).toHaveLength(4);
    expect(layers.every((l) => l.completed === l.total)).toBe(true);
  });
});

describe('/api/pull stream:false', () => {
  it('answers one {"status":"success"} and installs the model', async () => {
    const { url, client } = await startStandin({ catalog });
    const res = await post(url, '/api/pull', { model: 'phi3:mini', stream: false });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('{"status":"success"}');
    expect((await client.show({ model: 'phi3:mini' })).details.family).toBe('phi3');
  });

  it('an unknown model is a 500 with the error', async () => {
    const { url } = await startStandin({ catalog });
    const res = await post(url, '/api/pull', { model: 'nosuch:model', stream: false });
    expect([res.status, await res.json()]).toEqual([500, { error: 'pull model manifest: file does not exist' }]);
  });

  it('an invalid name is a 400', async () => {
    const { url } = await startStandin({ catalog });
    const res = await post(url, '/api/pull', { model: 'no good' });
    expect([res.status, await res.json()]).toEqual([400, { error: 'invalid model name' }]);
  });

  it('a deleted model can be pulled back', async () => {
    const { client } = await startStandin({ catalog });
    await client.delete({ model: 'gemma:2b' });
    expect(await client.pull({ model: 'gemma:2b' })).toEqual({ status: 'success' });
    expect((await client.list()).models.map((m) => m.name)).toContain('gemma:2b');
  });
});
