// Cloud models and the model list with two stand-ins: a "GPU server" at the configured host
// (reached through an IPv4-mapped address, so it is not a loopback name) and the local Ollama.
// Spec: invariants 4 (cloud routing), 5 (merged listing), 8 (30 s cache); behavioural examples
// "Cloud model routed to localhost" and "Merged model listing with cloud models".
// covers: ollama-provider#invariant-4, ollama-provider#invariant-5, ollama-provider#invariant-8
import { once } from 'node:events';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  chatRequests,
  cleanup,
  closedPort,
  cloudModel,
  eventRecorder,
  localModel,
  makeProvider,
  remoteUrl,
  requestsTo,
  startStandin,
  tracked,
  user,
} from './provider-test-kit';

afterEach(cleanup);

const REMOTE_MODELS = [localModel('llama3.1:8b'), localModel('qwen3:8b', { family: 'qwen3' }), localModel('mistral:7b')];
const LOCAL_MODELS = [
  cloudModel('gpt-oss:120b-cloud'),
  cloudModel('qwen3-coder:480b-cloud', { family: 'qwen3moe', capabilities: ['completion', 'tools'] }),
  localModel('phi3:mini', { family: 'phi3' }), // local-only model on the laptop: not part of the GPU server's list
];

async function twoHosts(now?: () => number) {
  const remote = await startStandin({
    catalog: REMOTE_MODELS,
    script: { turns: { '*': [{ content: 'from the GPU server' }] }, loop: true },
  });
  const local = await startStandin({
    catalog: LOCAL_MODELS,
    script: { turns: { '*': [{ content: 'from ollama.com via local' }] }, loop: true },
  });
  const host = remoteUrl(remote.port);
  const t = makeProvider(host, { localHost: local.url, now });
  return { remote, local, host, ...t };
}

describe('merged model listing (spec example; invariant 5)', () => {
  it('3 models on the GPU server + 2 cloud models from localhost = 5', async () => {
    const { provider, remote, local } = await twoHosts();
    const names = await provider.models.refreshModels();
    expect(names.sort()).toEqual(['gpt-oss:120b-cloud', 'llama3.1:8b', 'mistral:7b', 'qwen3-coder:480b-cloud', 'qwen3:8b']);
    expect(requestsTo(remote.server, '/api/tags')).toHaveLength(1);
    expect(requestsTo(local.server, '/api/tags')).toHaveLength(1);
  });

  it('model details cover both hosts, with the host each model is served from', async () => {
    const { provider, local } = await twoHosts();
    const host = provider.host;
    const details = await provider.models.getModelDetails();
    const byName = Object.fromEntries(details.map((d) => [d.name, d]));
    expect(Object.keys(byName).sort()).toEqual(['gpt-oss:120b-cloud', 'llama3.1:8b', 'mistral:7b', 'qwen3-coder:480b-cloud', 'qwen3:8b']);
    expect(byName['llama3.1:8b']).toMatchObject({ host, cloud: false, parameterSize: '1.2B', capabilities: ['completion', 'tools'] });
    expect(byName['gpt-oss:120b-cloud']).toMatchObject({ host: local.url, cloud: true, capabilities: ['completion', 'tools', 'thinking'] });
  });

  it('warming a model asks both hosts for their lists (each session records the merged one): the trials then ask nothing', async () => {
    const { provider, remote, local } = await twoHosts();
    await provider.warm('llama3.1:8b');
    const asked = () => [requestsTo(remote.server, '/api/tags').length, requestsTo(local.server, '/api/tags').length];
    expect(asked()).toEqual([1, 1]);
    await Promise.all([provider.describe('llama3.1:8b'), provider.listModels()]);
    expect(asked()).toEqual([1, 1]);
  });

  it("the local Ollama being down still lists the GPU server's models, with a warning", async () => {
    const remote = await startStandin({ catalog: REMOTE_MODELS });
    const { provider, logs } = makeProvider(remoteUrl(remote.port), { localHost: `http://127.0.0.1:${await closedPort()}` });
    expect((await provider.models.refreshModels()).sort()).toEqual(['llama3.1:8b', 'mistral:7b', 'qwen3:8b']);
    expect(logs).toContainEqual({ level: 'warn', message: expect.stringContaining('unreachable for cloud models') });
  });

  it('when the configured host is the local one, it is asked once', async () => {
    const local = await startStandin({ catalog: [...REMOTE_MODELS, ...LOCAL_MODELS] });
    const { provider } = makeProvider(local.url, { localHost: local.url.replace('127.0.0.1', 'localhost') });
    expect(await provider.models.refreshModels()).toHaveLength(6);
    expect(requestsTo(local.server, '/api/tags')).toHaveLength(1);
  });
});

describe('model list cache TTL 30 s (invariant 8)', () => {
  it('a second call within 30 s makes no HTTP request; at 30 s both hosts are asked again', async () => {
    let now = 1_000_000;
    const { provider, remote, local } = await twoHosts(() => now);
    const tagsCalls = () => [requestsTo(remote.server, '/api/tags').length, requestsTo(local.server, '/api/tags').length];
    const first = await provider.models.refreshModels();
    expect(tagsCalls()).toEqual([1, 1]);
    now += 29_999;
    expect(await provider.models.refreshModels()).toEqual(first);
    expect(tagsCalls()).toEqual([1, 1]);
    now += 1;
    await provider.models.refreshModels();
    expect(tagsCalls()).toEqual([2, 2]);
  });

  it('concurrent callers share one fetch', async () => {
    const { provider, remote } = await twoHosts();
    const lists = await Promise.all([1, 2, 3, 4].map(() => provider.models.refreshModels()));
    expect(new Set(lists.map((l) => l.join()))).toHaveProperty('size', 1);
    expect(requestsTo(remote.server, '/api/tags')).toHaveLength(1);
  });

  it('/api/show answers are cached for 30 s too', async () => {
    let now = 0;
    const { provider, remote } = await twoHosts(() => now);
    await provider.complete({ model: 'llama3.1:8b', messages: user('a') });
    await provider.complete({ model: 'llama3.1:8b', messages: user('b') });
    expect(requestsTo(remote.server, '/api/show')).toHaveLength(1);
    now += 30_000;
    await provider.complete({ model: 'llama3.1:8b', messages: user('c') });
    expect(requestsTo(remote.server, '/api/show')).toHaveLength(2);
  });
});

describe('cloud model routed to localhost (spec example; invariant 4)', () => {
  it('a -cloud model goes to the local Ollama, not the configured GPU server, and the redirect is logged', async () => {
    const { provider, remote, local, logs } = await twoHosts();
    const events = eventRecorder();
    const result = await provider.complete({ model: 'gpt-oss:120b-cloud', messages: user('hi'), onEvent: events.sink });
    expect(result.content).toBe('from ollama.com via local');
    expect(chatRequests(local.server).map((r) => r.model)).toEqual(['gpt-oss:120b-cloud']);
    expect(requestsTo(local.server, '/api/show').map((r) => r.model)).toEqual(['gpt-oss:120b-cloud']);
    expect(remote.server.requests).toEqual([]);
    expect(events.of('inference_request')[0]).toMatchObject({ host: local.url, redirected: true });
    const redirects = logs.filter(
      (l) => l.message.includes('gpt-oss:120b-cloud') && l.message.includes(local.url) && l.message.includes(provider.host),
    );
    expect(redirects).toHaveLength(1);
    // once per model, not per request
    await provider.complete({ model: 'gpt-oss:120b-cloud', messages: user('again') });
    expect(logs.filter((l) => l.message.includes('routed'))).toHaveLength(1);
  });

  it('local models stay on the configured host', async () => {
    const { provider, remote, local, logs } = await twoHosts();
    const events = eventRecorder();
    const result = await provider.complete({ model: 'llama3.1:8b', messages: user('hi'), onEvent: events.sink });
    expect(result.content).toBe('from the GPU server');
    expect(chatRequests(remote.server)).toHaveLength(1);
    expect(chatRequests(local.server)).toHaveLength(0);
    expect(events.of('inference_request')[0]).toMatchObject({ redirected: false });
    expect(logs.filter((l) => l.message.includes('routed'))).toEqual([]);
  });

  it("cloud slots are taken on the local host's limiter and do not block the GPU server's", async () => {
    const { provider, host, local } = await twoHosts();
    expect(await provider.acquireSlot('gpt-oss:120b-cloud')).toBe(true);
    expect(provider.limiterFor(local.url).activeWeight).toBe(1); // cloud weight max(2, ceil(1/2)) = 2, clamped to the serial host
    expect(provider.limiterFor(host).activeWeight).toBe(0);
    expect(await provider.acquireSlot('llama3.1:8b')).toBe(true);
    expect(provider.limiterFor(host).activeWeight).toBe(1);
    provider.releaseSlot('gpt-oss:120b-cloud');
    await provider.idle();
    provider.releaseSlot('llama3.1:8b');
    await provider.idle();
    expect(provider.limiterFor(local.url).activeWeight).toBe(0);
    expect(provider.limiterFor(host).activeWeight).toBe(0);
  });

  it('a cloud model is not redirected when the configured host is the local one, however it is spelled', async () => {
    const local = await startStandin({ catalog: LOCAL_MODELS, script: { turns: { '*': [{ content: 'ok' }] } } });
    const { provider, logs } = makeProvider(local.url, { localHost: `localhost:${local.port}` });
    const events = eventRecorder();
    await provider.complete({ model: 'gpt-oss:120b-cloud', messages: user('hi'), onEvent: events.sink });
    expect(chatRequests(local.server)).toHaveLength(1);
    expect(events.of('inference_request')[0]).toMatchObject({ host: local.url, redirected: false });
    expect(logs.filter((l) => l.message.includes('routed'))).toEqual([]);
  });

  it('a second Ollama on another loopback port is a different server: cloud models still go to the local one', async () => {
    const other = await startStandin({ catalog: REMOTE_MODELS });
    const local = await startStandin({ catalog: LOCAL_MODELS, script: { turns: { '*': [{ content: 'ok' }] } } });
    const { provider } = makeProvider(other.url, { localHost: local.url });
    await provider.complete({ model: 'gpt-oss:120b-cloud', messages: user('hi') });
    expect(chatRequests(local.server)).toHaveLength(1);
    expect(other.server.requests).toEqual([]);
  });
});

describe('a trial asks for its model’s digest: the local listing is waited for only by cloud models', () => {
  it('a model the host serves is described while the local Ollama has not answered; a cloud model waits for it, and both hosts are listed at once', async () => {
    const remote = await startStandin({ catalog: REMOTE_MODELS });
    // a local Ollama that holds its answers until told
    const held: http.ServerResponse[] = [];
    const local = http.createServer((_req, res) => void held.push(res));
    const localAsked = once(local, 'request');
    await new Promise<void>((resolve) => local.listen(0, '127.0.0.1', resolve));
    try {
      const { provider } = makeProvider(remoteUrl(remote.port), { localHost: `http://127.0.0.1:${(local.address() as AddressInfo).port}` });
      const own = tracked(provider.describe('llama3.1:8b'));
      const cloud = tracked(provider.describe('gpt-oss:120b-cloud'));
      // the served model is described with the local listing still unanswered
      expect((await own.promise).digest).toEqual(expect.any(String));
      await localAsked;
      expect(cloud.settled()).toBe(false);
      expect(held).toHaveLength(1); // asked once, beside the host's listing
      held[0].writeHead(200, { 'content-type': 'application/json' });
      held[0].end(
        JSON.stringify({ models: [{ name: 'gpt-oss:120b-cloud', model: 'gpt-oss:120b-cloud', digest: 'cloud-digest', size: 1 }] }),
      );
      expect((await cloud.promise).digest).toBe('cloud-digest');
      expect(requestsTo(remote.server, '/api/tags')).toHaveLength(1);
    } finally {
      for (const res of held) res.destroy();
      await new Promise((resolve) => local.close(resolve));
    }
  });
});
