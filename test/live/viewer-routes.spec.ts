// The viewer's routes over real HTTP: the page and its files need no token and hold no data (a
// strict CSP, nothing outside web/), the socket.io client script is served, and the event
// catalogue the page draws with needs the token like every other data route.
import { JOURNAL_EVENT_TYPES } from '../../src/journal/journal-events';
import {
  LOOP_BREAK_KINDS,
  NUDGE_REASONS,
  PATHOLOGY_KEYS,
  PATHOLOGY_LABELS,
  TERMINATION_REASONS,
} from '../../src/journal/events/loop-vocabulary';
import { startApiApp, type ApiApp } from '../support/api-app';

describe('viewer routes', () => {
  let a: ApiApp;
  beforeAll(async () => {
    a = await startApiApp();
  });
  afterAll(async () => {
    await a?.close();
  });

  it('serves the page and its files without a token, under a CSP that allows only its own origin', async () => {
    const page = await a.call('GET', '/', undefined, null);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await page.text();
    expect(html).toContain('/viewer/app.js');
    expect(html).toContain('/socket.io/socket.io.min.js');
    for (const file of ['app.js', 'api.js', 'session-view.js', 'timeline.js', 'style.css']) {
      const res = await a.call('GET', `/viewer/${file}`, undefined, null);
      expect([file, res.status]).toEqual([file, 200]);
    }
    expect((await a.call('GET', '/viewer/app.js', undefined, null)).headers.get('content-type')).toMatch(/^text\/javascript/);
    const client = await a.call('GET', '/socket.io/socket.io.min.js', undefined, null);
    expect(client.status).toBe(200);
    expect((await client.text()).length).toBeGreaterThan(10_000);
  });

  it('serves nothing outside web/ and no unknown file', async () => {
    for (const route of ['/viewer/nope.js', '/viewer/index.html', '/viewer/..%2Fpackage.json', '/viewer/%2e%2e/%2e%2e/package.json']) {
      const res = await a.call('GET', route, undefined, null);
      expect([route, res.status]).toEqual([route, 404]);
      expect(await res.text()).not.toContain('"dependencies"');
    }
  });

  it('the event catalogue needs the token, and lists the whole vocabulary with a timeline kind each', async () => {
    expect((await a.call('GET', '/api/events/catalogue', undefined, null)).status).toBe(401);
    expect((await a.call('GET', '/api/events/catalogue', undefined, 'wrong')).status).toBe(401);
    const res = await a.call('GET', '/api/events/catalogue');
    expect(res.status).toBe(200);
    const entries = (await res.json()) as Array<{ type: string; kind: string; description: string }>;
    expect(entries.map((e) => e.type).sort()).toEqual([...JOURNAL_EVENT_TYPES].sort());
    expect(entries.find((e) => e.type === 'repeat_break')).toEqual(
      expect.objectContaining({ kind: 'break', description: expect.any(String) }),
    );
  });

  it("the loop's vocabulary the viewer labels with needs the token, and holds every name it declares", async () => {
    expect((await a.call('GET', '/api/events/vocabulary', undefined, null)).status).toBe(401);
    const res = await a.call('GET', '/api/events/vocabulary');
    expect(res.status).toBe(200);
    const v = (await res.json()) as {
      loopBreaks: string[];
      nudgeReasons: string[];
      terminations: Array<{ reason: string; tone: string }>;
      pathologies: Array<{ key: string; label: string }>;
    };
    expect(v.loopBreaks).toEqual([...LOOP_BREAK_KINDS]);
    expect(v.nudgeReasons).toEqual([...NUDGE_REASONS]);
    expect(v.terminations.map((t) => t.reason)).toEqual([...TERMINATION_REASONS]);
    expect(v.terminations.find((t) => t.reason === 'error_repeat_break')?.tone).toBe('warn');
    expect(v.pathologies).toEqual(PATHOLOGY_KEYS.map((key) => ({ key, label: PATHOLOGY_LABELS[key] })));
  });
});
