// The CLI's resolution cache (bin/resolve-cache.js): a require() made before is answered from it, a
// file that is gone is resolved afresh, and a new install or build drops every entry, so a module
// resolves to what Node itself would pick. The built CLI with it: compile-cache.spec.ts.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ROOT } from '../support/run-cli';

interface Stats {
  hits: number;
  misses: number;
  stale: number;
  written: boolean;
  file: string | null;
}

/** Runs `main` in a Node process with the cache on for `root` (kept in `dir`); its stdout and the cache's stats. */
function runWithCache(root: string, dir: string, main: string, entry = main): { out: string; stats: Stats } {
  const script = `
    const { enableResolveCache } = require(${JSON.stringify(path.join(ROOT, 'bin', 'resolve-cache.js'))});
    const stats = enableResolveCache(${JSON.stringify(root)}, ${JSON.stringify(dir)}, ${JSON.stringify(entry)});
    process.on('exit', () => process.stderr.write('STATS' + JSON.stringify(stats)));
    require(${JSON.stringify(main)});
  `;
  const child = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
  if (child.status !== 0) throw new Error(`child failed (${child.status}): ${child.stderr}`);
  return { out: child.stdout.trim(), stats: JSON.parse(child.stderr.split('STATS').pop()!) as Stats };
}

function write(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

describe('require() resolutions served from the resolution cache', () => {
  let root: string;
  let dir: string;
  let main: string;
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-resolve-cache-'));
    dir = path.join(root, 'cache');
    main = path.join(root, 'dist', 'main.js');
    // a relative request, a package through its "main", a builtin
    write(main, "require('node:path'); console.log([require('./part'), require('pkg')].join(' '));\n");
    write(path.join(root, 'dist', 'part.js'), "module.exports = 'part.js';\n");
    write(path.join(root, 'node_modules', 'pkg', 'package.json'), '{"name":"pkg","main":"lib/entry.js"}');
    write(path.join(root, 'node_modules', 'pkg', 'lib', 'entry.js'), "module.exports = 'pkg/lib/entry.js';\n");
    write(path.join(root, 'node_modules', '.package-lock.json'), '{"lockfileVersion":3}');
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('are looked up once, then answered from the cache with the same modules', () => {
    const first = runWithCache(root, dir, main);
    expect(first.out).toBe('part.js pkg/lib/entry.js');
    expect(first.stats).toMatchObject({ hits: 0, misses: 2, written: true });

    const second = runWithCache(root, dir, main);
    expect(second.out).toBe(first.out);
    expect(second.stats).toMatchObject({ hits: 2, misses: 0, stale: 0, written: false });
  });

  it('resolve afresh when the cached file is gone', () => {
    runWithCache(root, dir, main);
    fs.rmSync(path.join(root, 'dist', 'part.js'));
    write(path.join(root, 'dist', 'part', 'index.js'), "module.exports = 'part/index.js';\n");

    const moved = runWithCache(root, dir, main);
    expect(moved.out).toBe('part/index.js pkg/lib/entry.js');
    expect(moved.stats).toMatchObject({ hits: 1, misses: 1, stale: 1, written: true });
    expect(runWithCache(root, dir, main).stats).toMatchObject({ hits: 2, misses: 0, stale: 0 });
  });

  it('are all dropped by a new install, where a cached file still exists but is no longer the answer', () => {
    runWithCache(root, dir, main);
    // the package now points elsewhere; its old file stays
    write(path.join(root, 'node_modules', 'pkg', 'package.json'), '{"name":"pkg","main":"lib/next.js"}');
    write(path.join(root, 'node_modules', 'pkg', 'lib', 'next.js'), "module.exports = 'pkg/lib/next.js';\n");
    write(path.join(root, 'node_modules', '.package-lock.json'), '{"lockfileVersion":3,"packages":{}}');

    const installed = runWithCache(root, dir, main);
    expect(installed.out).toBe('part.js pkg/lib/next.js');
    expect(installed.stats).toMatchObject({ hits: 0, misses: 2 });
  });

  it('are all dropped by a new build, where a new file comes before the cached one', () => {
    write(path.join(root, 'dist', 'part', 'index.js'), "module.exports = 'part/index.js';\n");
    fs.rmSync(path.join(root, 'dist', 'part.js'));
    expect(runWithCache(root, dir, main).out).toBe('part/index.js pkg/lib/entry.js');
    // a build that leaves the old output behind: Node now picks part.js first
    write(path.join(root, 'dist', 'part.js'), "module.exports = 'part.js';\n");
    fs.utimesSync(main, new Date(), new Date(Date.now() + 5_000));

    const rebuilt = runWithCache(root, dir, main);
    expect(rebuilt.out).toBe('part.js pkg/lib/entry.js');
    expect(rebuilt.stats).toMatchObject({ hits: 0, misses: 2 });
  });

  it('resolve as Node would when the cache file is garbage, and write it anew', () => {
    const first = runWithCache(root, dir, main);
    for (const garbage of ['not json', '[]', '{"fingerprint":1,"entries":[]}']) {
      fs.writeFileSync(first.stats.file!, garbage);
      const again = runWithCache(root, dir, main);
      expect(again.out).toBe('part.js pkg/lib/entry.js');
      expect(again.stats).toMatchObject({ hits: 0, misses: 2, written: true });
    }
  });

  it('leave requests from outside the install to Node', () => {
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-resolve-outside-'));
    try {
      write(path.join(outside, 'o.js'), "module.exports = require('./p');\n");
      write(path.join(outside, 'p.js'), "module.exports = 'outside';\n");
      write(main, `console.log(require(${JSON.stringify(path.join(outside, 'o.js'))}));\n`);
      runWithCache(root, dir, main);
      const second = runWithCache(root, dir, main);
      expect(second.out).toBe('outside');
      // an answer outside the install is not kept, and a request made from outside it is not counted
      expect(second.stats).toMatchObject({ hits: 0, misses: 1, written: false });
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });
});
