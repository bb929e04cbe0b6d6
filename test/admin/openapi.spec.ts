// The OpenAPI document against the routes as they answer: every operation declares a 2xx answer with
// its schema and its error answers in the one error shape; then real answers of every route (a
// scripted session, an eval run, MCP servers, models on a stand-in host, the doctor, errors) are
// checked against the schemas the document gives them, so a field added to an answer and not to its
// DTO fails here. The explorer's page is public and its document is not.
import { StandinServer } from '../../src/standin/standin-server';
import { DEFAULT_CATALOG } from '../../src/standin/standin-catalog';
import { eventually, expectJson, startApiApp, type ApiApp } from '../support/api-app';
import { conformance, resolve, type OpenApiDoc, type Operation } from '../support/openapi-conformance';

const METHODS = ['get', 'post', 'put', 'delete', 'patch'] as const;
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

function operations(doc: OpenApiDoc): Array<[string, string, Operation]> {
  return Object.entries(doc.paths).flatMap(([route, item]) =>
    METHODS.filter((m) => item[m]).map((m): [string, string, Operation] => [m.toUpperCase(), route, item[m]]),
  );
}

/** The operation a request lands on (path templates matched as the router does, literal segments first). */
function operationFor(doc: OpenApiDoc, method: string, url: string): Operation {
  const pathname = url.split('?')[0];
  const candidates = Object.keys(doc.paths)
    .filter((route) => new RegExp(`^${route.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(pathname))
    .sort((a, b) => (a.match(/\{/g)?.length ?? 0) - (b.match(/\{/g)?.length ?? 0));
  const op = candidates.map((c) => doc.paths[c][method.toLowerCase()]).find(Boolean);
  if (!op) throw new Error(`no operation in the document for ${method} ${pathname}`);
  return op;
}

describe('the OpenAPI document', () => {
  let a: ApiApp;
  let doc: OpenApiDoc;

  /** Calls a route and checks its answer against the schema the document gives its status. */
  async function conforms(method: string, url: string, status: number, body?: unknown, token?: string | null): Promise<unknown> {
    const res = await a.call(method, url, body, token);
    const text = await res.text();
    expect({ route: `${method} ${url}`, status: res.status, text: res.status === status ? '' : text }).toEqual({
      route: `${method} ${url}`,
      status,
      text: '',
    });
    const declared = operationFor(doc, method, url).responses[String(status)];
    expect({ route: `${method} ${url}`, declares: status, found: Boolean(declared) }).toEqual({
      route: `${method} ${url}`,
      declares: status,
      found: true,
    });
    if (status === 204) return undefined;
    const value = JSON.parse(text) as unknown;
    const schema = declared.content?.['application/json']?.schema;
    expect(schema).toBeDefined();
    expect({ route: `${method} ${url}`, problems: conformance(doc, schema!, value).slice(0, 10) }).toEqual({
      route: `${method} ${url}`,
      problems: [],
    });
    return value;
  }

  beforeAll(async () => {
    a = await startApiApp();
    doc = await expectJson<OpenApiDoc>(await a.call('GET', '/api/docs-json'), 200);
  });
  afterAll(async () => {
    await a?.close();
  });

  it('gives every operation a 2xx answer with its schema, and its error answers in the one error shape', () => {
    const ops = operations(doc);
    expect(ops.length).toBeGreaterThanOrEqual(25);
    const problems: string[] = [];
    for (const [method, route, op] of ops) {
      const name = `${method} ${route}`;
      const ok = Object.keys(op.responses).filter((s) => /^2\d\d$/.test(s));
      if (ok.length === 0) problems.push(`${name}: no 2xx answer`);
      for (const s of ok) {
        if (s === '204') continue;
        const schema = op.responses[s].content?.['application/json']?.schema;
        if (!schema) problems.push(`${name}: ${s} has no schema`);
        else if (Object.keys(resolve(doc, schema)).length === 0) problems.push(`${name}: ${s} has an empty schema`);
      }
      const errors = Object.keys(op.responses).filter((s) => /^[45]\d\d$/.test(s));
      if (!errors.includes('500')) problems.push(`${name}: no 500`);
      if (route !== '/health' && !errors.includes('401')) problems.push(`${name}: no 401 (it needs the token)`);
      if (route === '/health' && errors.includes('401')) problems.push(`${name}: 401, but it needs no token`);
      if (route.includes('{') && !errors.includes('404')) problems.push(`${name}: a path id, and no 404`);
      if ((op.parameters?.length || op.requestBody) && !errors.includes('400')) problems.push(`${name}: takes input, and no 400`);
      for (const s of errors) {
        if (route === '/ready' && s === '503') continue; // readiness answers its own body when not ready
        const ref = op.responses[s].content?.['application/json']?.schema?.$ref;
        if (ref !== '#/components/schemas/ErrorBodyDto') problems.push(`${name}: ${s} is not the error shape (${String(ref)})`);
      }
    }
    expect(problems).toEqual([]);
    // the error shape is the one error-mapping.ts answers
    expect(resolve(doc, { $ref: '#/components/schemas/ErrorBodyDto' }).required).toEqual(
      expect.arrayContaining(['statusCode', 'error', 'message', 'correlationId']),
    );
  });

  it("declares POST /api/mcp/add's body from the registry's own schemas", () => {
    const body = doc.paths['/api/mcp/add'].post.requestBody?.content?.['application/json']?.schema;
    expect(body).toMatchObject({
      type: 'object',
      required: ['name', 'config'],
      additionalProperties: false,
      properties: { name: { type: 'string', pattern: expect.any(String) }, config: { oneOf: expect.any(Array) } },
    });
    const branches = (body!.properties as { config: { oneOf: Array<{ properties: { transport: { enum: string[] } } }> } }).config.oneOf;
    expect(branches.map((b) => b.properties.transport.enum[0]).sort()).toEqual(['http', 'stdio']);
    expect(conformance(doc, body!, { name: 'fs', config: { transport: 'stdio', command: 'npx', args: ['x'] } })).toEqual([]);
    expect(conformance(doc, body!, { name: 'fs', config: { transport: 'http', url: 'http://h/mcp', oops: 1 } })).not.toEqual([]);
  });

  it('serves the explorer without the token, but not the document, and the page carries no document', async () => {
    for (const page of ['/api/docs', '/api/docs/', '/api/docs/swagger-ui-init.js', '/api/docs/swagger-ui-bundle.js']) {
      const res = await a.call('GET', page, undefined, null);
      expect({ page, status: res.status }).toEqual({ page, status: 200 });
      const text = await res.text();
      if (page.endsWith('init.js')) {
        expect(text).not.toContain('/api/sessions');
        expect(text).toContain('/api/docs-json');
        expect(text).toContain('requestInterceptor');
      }
    }
    for (const document of ['/api/docs-json', '/api/docs-yaml']) {
      expect((await a.call('GET', document, undefined, null)).status).toBe(401);
      expect((await a.call('GET', document, undefined, 'wrong')).status).toBe(401);
    }
  });

  it('matches what the routes answer: sessions, approvals, eval runs, MCP servers, the catalogue, the doctor, errors', async () => {
    await conforms('GET', '/health', 200, undefined, null);
    await conforms('GET', '/ready', 200);
    const started = (await conforms('POST', '/api/sessions', 201, {
      prompt: 'Read notes.txt.',
      files: { 'notes.txt': 'hello\n' },
      script: [{ tool_calls: [{ name: 'read_file', arguments: { path: 'notes.txt' } }] }, { content: 'It says hello.' }],
    })) as { sessionId: string };
    await eventually(async () => {
      const s = (await (await a.call('GET', `/api/sessions/${started.sessionId}`)).json()) as { session: { status: string } };
      return s.session.status === 'finished' ? true : undefined;
    }, 'the session to finish');
    await conforms('GET', '/api/sessions', 200);
    const view = (await conforms('GET', `/api/sessions/${started.sessionId}`, 200)) as { session: object; iterations: object[] };
    // the check can fail: a field the document does not list, at the top or in a row, is drift
    const viewSchema = operationFor(doc, 'GET', '/api/sessions/x').responses['200'].content!['application/json'].schema!;
    expect(conformance(doc, viewSchema, { ...view, bogus: 1 })).toEqual(['$.bogus: not in the document']);
    expect(conformance(doc, viewSchema, { ...view, iterations: [{ ...view.iterations[0], bogus: 1 }] })).toEqual([
      '$.iterations[0].bogus: not in the document',
    ]);
    expect(conformance(doc, viewSchema, { ...view, session: { ...view.session, iterations: 'two' } })).toEqual([
      '$.session.iterations: expected an integer, got "two"',
    ]);
    await conforms('GET', '/api/approvals', 200);
    await conforms('POST', `/api/sessions/${started.sessionId}/messages`, 409, { text: 'more' });
    await conforms('POST', `/api/sessions/${started.sessionId}/kill`, 409, {});

    const run = (await conforms('POST', '/api/eval-runs', 202, { scenarios: ['loop-control/same-tool-break.yaml'], trials: 2 })) as {
      runId: string;
    };
    await eventually(
      async () => {
        const r = (await (await a.call('GET', `/api/eval-runs/${run.runId}`)).json()) as { run?: { status: string } };
        return r.run?.status === 'finished' ? true : undefined;
      },
      'the eval run to finish',
      60_000,
    );
    await conforms('GET', '/api/eval-runs', 200);
    await conforms('GET', `/api/eval-runs/${run.runId}`, 200);
    await conforms('GET', `/api/eval-runs/${run.runId}/view`, 200);
    await conforms('GET', `/api/eval-runs/compare?a=${run.runId}&b=${run.runId}`, 200);
    await conforms('GET', `/api/sessions?run=${run.runId}`, 200);

    await conforms('GET', '/api/events/catalogue', 200);
    await conforms('GET', '/api/events/vocabulary', 200);
    await conforms('POST', '/api/mcp/add', 201, {
      name: 'remote',
      config: { transport: 'http', url: 'http://127.0.0.1:9/mcp', headers: { 'X-Key': 'k' } },
    });
    await conforms('POST', '/api/mcp/add', 409, { name: 'remote', config: { transport: 'http', url: 'http://127.0.0.1:9/mcp' } });
    await conforms('GET', '/api/mcp', 200);
    await conforms('GET', '/api/mcp/health', 200);
    await conforms('DELETE', '/api/mcp/remote', 204);
    await conforms('DELETE', '/api/mcp/remote', 404);
    await conforms('GET', '/api/doctor?probe=false', 200);

    await conforms('GET', `/api/sessions/${UNKNOWN}`, 404);
    await conforms('GET', `/api/eval-runs/${UNKNOWN}`, 404);
    await conforms('POST', '/api/mcp/add', 400, { name: 'Bad Name', config: { transport: 'ftp' } });
    await conforms('POST', '/api/sessions', 400, { prompt: '' });
    await conforms('GET', '/api/sessions', 401, undefined, null);
    await conforms('POST', '/api/approvals/call_x', 404, { approved: true });
    // no Ollama at the default host: the models routes answer 503 in the error shape
    await conforms('GET', '/api/models/running', 503);
  }, 120_000);

  describe('models, on a stand-in host', () => {
    let m: ApiApp;
    let standin: StandinServer;
    beforeAll(async () => {
      standin = new StandinServer({ catalog: [...DEFAULT_CATALOG] });
      const { url } = await standin.start(0);
      m = await startApiApp({ OLLAMA_HOST: url, OLLAMA_LOCAL_HOST: url });
    });
    afterAll(async () => {
      await m?.close();
      await standin?.stop();
    });

    it.each([
      ['GET', '/api/models/available', 200],
      ['GET', '/api/models/check?model=qwen3:8b&model=nope:1b', 200],
      ['GET', '/api/models/running', 200],
      ['GET', '/api/models/pulls', 200],
      ['GET', '/api/models/qwen3%3A8b', 200],
      ['GET', '/ready', 200],
    ])('%s %s', async (method, url, status) => {
      const res = await m.call(method, url);
      const text = await res.text();
      expect({ url, status: res.status }).toEqual({ url, status });
      const op = operationFor(doc, method, url);
      const schema = op.responses[String(status)].content!['application/json'].schema!;
      expect(conformance(doc, schema, JSON.parse(text))).toEqual([]);
    });
  });
});
