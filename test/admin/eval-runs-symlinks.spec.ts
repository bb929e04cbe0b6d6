// POST /api/eval-runs reads scenarios only inside LOUPE_SCENARIOS_DIR: a symbolic link inside it that
// leads out — named in the request, or found while walking a named directory — answers 400 naming
// the path, and nothing runs.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startApiApp, type ApiApp, expectJson } from '../support/api-app';

const SCENARIO = (id: string) => `id: ${id}\nprompt: go\nscript:\n  - content: done\nexpect:\n  - termination: completed\n`;
const OUTSIDE = 'resolves through a symbolic link to a path outside the scenarios directory';

describe('admin API: eval runs and symbolic links', () => {
  let a: ApiApp;
  let tmp: string;

  beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-links-'));
    const root = path.join(tmp, 'scenarios');
    fs.mkdirSync(path.join(root, 'suite'), { recursive: true });
    fs.mkdirSync(path.join(tmp, 'outside'));
    fs.writeFileSync(path.join(tmp, 'outside', 'secret.yaml'), SCENARIO('secret'));
    fs.writeFileSync(path.join(root, 'suite', 'ok.yaml'), SCENARIO('ok'));
    fs.symlinkSync(path.join(tmp, 'outside'), path.join(root, 'escape'));
    fs.symlinkSync(path.join(tmp, 'outside', 'secret.yaml'), path.join(root, 'suite', 'linked.yaml'));
    a = await startApiApp({ LOUPE_SCENARIOS_DIR: root });
  });
  afterAll(async () => {
    await a?.close();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('refuses a named path that leads out through a link', async () => {
    const res = await expectJson<{ errors: unknown[] }>(
      await a.call('POST', '/api/eval-runs', { scenarios: ['escape', 'escape/secret.yaml', 'suite/ok.yaml'] }),
      400,
    );
    expect(res.errors).toEqual([
      { field: 'scenarios.0', message: `"escape" ${OUTSIDE}` },
      { field: 'scenarios.1', message: `"escape/secret.yaml" ${OUTSIDE}` },
    ]);
    expect(JSON.stringify(res)).not.toContain(tmp);
  });

  it('refuses a file found in a named directory that leads out through a link', async () => {
    for (const scenarios of [['suite'], ['.'], ['suite/linked.yaml']]) {
      const res = await expectJson<{ errors: unknown[] }>(await a.call('POST', '/api/eval-runs', { scenarios }), 400);
      expect(res.errors).toEqual(
        scenarios[0] === 'suite/linked.yaml'
          ? [{ field: 'scenarios.0', message: `"suite/linked.yaml" ${OUTSIDE}` }]
          : expect.arrayContaining([
              { field: 'scenarios', message: expect.stringMatching(new RegExp(`^(suite/linked\\.yaml|escape):0:0: ${OUTSIDE}$`)) },
            ]),
      );
      expect(JSON.stringify(res)).not.toContain(tmp);
    }
    const list = await expectJson<unknown[]>(await a.call('GET', '/api/eval-runs'), 200);
    expect(list).toEqual([]);
  });
});
