// JSON bodies the validation would choke on — nested past the depth limit (a 100k-deep one
// overflowed the stack: 500), or holding more keys than the limit (50k unknown keys held the event
// loop for seconds) — answer 400 with the limit named, before any validation runs, while the
// server goes on answering others.
import { MAX_BODY_DEPTH, MAX_BODY_KEYS } from '../../src/admin/http/configure-http';
import { startApiApp, type ApiApp, expectJson } from '../support/api-app';

interface ErrorBody {
  statusCode: number;
  message: string;
  errors: Array<{ field: string; message: string }>;
}

describe('admin API: body depth and key limits', () => {
  let a: ApiApp;

  beforeAll(async () => {
    a = await startApiApp();
  });
  afterAll(async () => {
    await a?.close();
  });

  it('refuses a 100k-deep body and one with 50k keys with 400, and /health answers meanwhile', async () => {
    const deep = `{"prompt":"x","script":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    const keys = JSON.stringify({ prompt: 'x', ...Object.fromEntries(Array.from({ length: 50_000 }, (_, i) => [`k${i}`, i])) });
    const [tooDeep, tooMany, ...health] = await Promise.all([
      a.call('POST', '/api/sessions', deep),
      a.call('POST', '/api/sessions', keys),
      ...Array.from({ length: 5 }, () => a.call('GET', '/health', undefined, null)),
    ]);
    expect(await expectJson<ErrorBody>(tooDeep, 400)).toEqual(
      expect.objectContaining({
        statusCode: 400,
        message: `request body nests deeper than ${MAX_BODY_DEPTH} levels`,
        errors: [{ field: 'body', message: `nests deeper than ${MAX_BODY_DEPTH} levels` }],
      }),
    );
    expect(await expectJson<ErrorBody>(tooMany, 400)).toEqual(
      expect.objectContaining({ statusCode: 400, message: `request body has more than ${MAX_BODY_KEYS} keys` }),
    );
    for (const h of health) expect(await expectJson(h, 200)).toEqual({ status: 'ok', database: 'up' });
  });

  it('still takes a body at the limits, and answers its ordinary validation', async () => {
    const nested = `${'{"a":'.repeat(MAX_BODY_DEPTH - 2)}1${'}'.repeat(MAX_BODY_DEPTH - 2)}`;
    const body = `{"prompt":"x","options":${nested}}`;
    const answer = await expectJson<ErrorBody>(await a.call('POST', '/api/sessions', body), 400);
    expect(answer.message).not.toMatch(/nests deeper|more than .* keys/);
    expect(answer.errors.map((e) => e.field)).toContain('options.a');
  });
});
