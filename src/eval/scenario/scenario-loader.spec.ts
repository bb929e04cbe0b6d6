import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ScenarioLoadError } from './scenario-errors';
import { loadScenarios } from './scenario-loader';

const scenario = (id: string) => `id: ${id}\nprompt: go\nscript:\n  - content: done\nexpect:\n  - termination: completed\n`;

function problemsOf(load: () => unknown): string[] {
  try {
    load();
  } catch (e) {
    if (e instanceof ScenarioLoadError) return e.message.split('\n');
    throw e;
  }
  throw new Error('expected the load to fail');
}

describe('scenario loader: symbolic links', () => {
  let tmp: string;
  let root: string;

  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-loader-'));
    root = path.join(tmp, 'scenarios');
    fs.mkdirSync(path.join(root, 'suite'), { recursive: true });
    fs.mkdirSync(path.join(tmp, 'outside'));
    fs.writeFileSync(path.join(root, 'suite', 'a.yaml'), scenario('a'));
    fs.writeFileSync(path.join(tmp, 'outside', 'secret.yaml'), scenario('secret'));
  });
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('refuses, by name, a file or directory found while walking that resolves outside the root', () => {
    fs.symlinkSync(path.join(tmp, 'outside', 'secret.yaml'), path.join(root, 'suite', 'b.yaml'));
    fs.symlinkSync(path.join(tmp, 'outside'), path.join(root, 'suite', 'more'));
    expect(problemsOf(() => loadScenarios(['suite'], root, { root }))).toEqual([
      'suite/b.yaml:0:0: resolves through a symbolic link to a path outside the scenarios directory',
      'suite/more:0:0: resolves through a symbolic link to a path outside the scenarios directory',
    ]);
    expect(problemsOf(() => loadScenarios(['suite/b.yaml'], root, { root }))).toEqual([
      'suite/b.yaml:0:0: resolves through a symbolic link to a path outside the scenarios directory',
    ]);
    // the CLI names what it wants to run, wherever it is
    expect(loadScenarios(['suite/b.yaml'], root).map((s) => s.id)).toEqual(['secret']);
  });

  it('follows links that stay inside, once per directory, and names a broken link', () => {
    fs.symlinkSync(path.join(root, 'suite'), path.join(root, 'suite', 'loop'));
    expect(loadScenarios(['.'], root, { root }).map((s) => s.id)).toEqual(['a']);
    fs.symlinkSync(path.join(root, 'gone.yaml'), path.join(root, 'suite', 'broken.yaml'));
    expect(problemsOf(() => loadScenarios(['suite'], root, { root }))).toEqual(['suite/broken.yaml:0:0: cannot be read (ENOENT)']);
  });
});
