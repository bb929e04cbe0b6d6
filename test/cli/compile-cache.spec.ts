// The CLI's code cache (bin/compile-cache.js): a module is served from it only when its source is the
// one cached, anything unreadable is compiled as Node would, and the built CLI behaves the same with
// it as without it while compiling nothing on a second run.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ROOT, runCli } from '../support/run-cli';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const cache = require(path.join(ROOT, 'bin', 'compile-cache.js')) as {
  encodeBlob(entries: Map<string, { hash: string; data: Buffer }>): Buffer;
  decodeBlob(bytes: Buffer): Map<string, { hash: string; data: Buffer }>;
  compileCacheDir(root: string, env: Record<string, string | undefined>, execArgv?: string[]): string | null;
  cacheFlags(v8Flags: string, execArgv?: string[], nodeOptions?: string): string;
  mayImportDynamically(source: string): boolean;
};

interface Stats {
  hits: number;
  compiled: number;
  rejected: number;
  fallbacks: number;
  written: boolean;
  blob: string | null;
}

/** Runs `main` in a Node process with the cache on for `root` (kept in `dir`); its stdout and the cache's stats. */
function runWithCache(root: string, dir: string, main: string): { out: string; stats: Stats } {
  const script = `
    const { enableCompileCache } = require(${JSON.stringify(path.join(ROOT, 'bin', 'compile-cache.js'))});
    const stats = enableCompileCache(${JSON.stringify(root)}, ${JSON.stringify(dir)}, '');
    process.on('exit', () => process.stderr.write('STATS' + JSON.stringify(stats)));
    require(${JSON.stringify(main)});
  `;
  const child = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
  if (child.status !== 0) throw new Error(`child failed (${child.status}): ${child.stderr}`);
  return { out: child.stdout.trim(), stats: JSON.parse(child.stderr.split('STATS').pop()!) as Stats };
}

describe('the code cache blob', () => {
  it('reads back what it wrote', () => {
    const entries = new Map([
      ['/a.js', { hash: 'h1', data: Buffer.from([1, 2, 3]) }],
      ['/b c.js', { hash: 'h2', data: Buffer.alloc(0) }],
    ]);
    const back = cache.decodeBlob(cache.encodeBlob(entries));
    expect([...back].map(([f, e]) => [f, e.hash, [...e.data]])).toEqual([
      ['/a.js', 'h1', [1, 2, 3]],
      ['/b c.js', 'h2', []],
    ]);
  });

  it('is empty for anything that is not a whole blob', () => {
    const good = cache.encodeBlob(new Map([['/a.js', { hash: 'h', data: Buffer.from('0123456789') }]]));
    for (const bytes of [
      Buffer.alloc(0),
      Buffer.from('garbage'),
      good.subarray(0, good.length - 1),
      Buffer.from(good.toString('latin1').replace('[[', '[{'), 'latin1'),
    ])
      expect(cache.decodeBlob(bytes).size).toBe(0);
  });

  it('is off for LOUPE_COMPILE_CACHE=0, under source maps or the inspector, and where LOUPE_COMPILE_CACHE says otherwise', () => {
    expect(cache.compileCacheDir('/r', {}, [])).toBe(path.join('/r', 'node_modules', '.cache', 'loupe'));
    expect(cache.compileCacheDir('/r', { LOUPE_COMPILE_CACHE: '0' }, [])).toBeNull();
    expect(cache.compileCacheDir('/r', { NODE_OPTIONS: '--enable-source-maps' }, [])).toBeNull();
    expect(cache.compileCacheDir('/r', {}, ['--inspect-brk'])).toBeNull();
    expect(cache.compileCacheDir('/r', { LOUPE_COMPILE_CACHE: '/c' }, [])).toBe('/c');
  });
});

describe("the blob's key", () => {
  it("holds Loupe's V8 flags and the process's own, from its command line and NODE_OPTIONS", () => {
    expect(cache.cacheFlags('--interrupt-budget=1', [], '')).toBe('--interrupt-budget=1');
    expect(cache.cacheFlags('--interrupt-budget=1', ['--expose-gc'], '--max-semi-space-size=32')).toBe(
      '--interrupt-budget=1 --expose-gc --max-semi-space-size=32',
    );
    // in either place and either order, the same key
    expect(cache.cacheFlags('', ['--max-semi-space-size=32'], '--expose-gc')).toBe(
      cache.cacheFlags('', ['--expose-gc', '--max-semi-space-size=32'], ''),
    );
  });

  it('leaves out options that only name a file, a directory or a profiler for this run', () => {
    const perRun = [
      '--cpu-prof',
      '--cpu-prof-dir=/tmp/a',
      '--heap-prof-dir',
      '/tmp/b',
      '-r',
      'x',
      '--require',
      'y',
      '--import=z',
      '--title',
      't',
    ];
    expect(cache.cacheFlags('--v8', perRun, '--cpu-prof-name p.cpuprofile --diagnostic-dir=/d')).toBe('--v8');
    expect(cache.cacheFlags('--v8', [...perRun, '--expose-gc'], '')).toBe('--v8 --expose-gc');
  });
});

describe('a module that may call import()', () => {
  it('is one with a call in its code, or a mention Loupe cannot tell from one', () => {
    for (const source of [
      "import('./m.mjs').then(run);",
      'const m = await import (name);',
      "load = () => import('x'); // lazily",
      "/* a type */ const m = import('x');",
      ' */ import("x");',
      "const text = 'import(x)';",
      'x = a\n  * import(b);',
    ])
      expect([source, cache.mayImportDynamically(source)]).toEqual([source, true]);
  });

  it('is not one whose only mentions are on comment lines', () => {
    for (const source of [
      "/** @type {import('./shams')} */\nmodule.exports = 1;",
      "/**\n * @param {import('../types').Options} [options]\n */\nfunction f() {}",
      '// emits an inline `import()` of an ESM path\nconst a = 1;',
      '    /* import(x) */',
      'module.exports = require("./x");',
    ])
      expect([source, cache.mayImportDynamically(source)]).toEqual([source, false]);
  });
});

describe('modules served from the code cache', () => {
  let root: string;
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-compile-cache-'));
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('come from the cache on the second run, and a changed source of the same length is compiled afresh', () => {
    const dir = path.join(root, 'cache');
    const mod = path.join(root, 'mod.js');
    fs.writeFileSync(mod, "const dep = require('./dep.js'); console.log('answer ' + (dep + 1) + ' ' + require.resolve('./dep.js'));\n");
    fs.writeFileSync(path.join(root, 'dep.js'), 'module.exports = 40;\n');

    const first = runWithCache(root, dir, mod);
    expect(first.out).toBe(`answer 41 ${path.join(root, 'dep.js')}`);
    expect(first.stats).toMatchObject({ hits: 0, compiled: 2, written: true });

    const second = runWithCache(root, dir, mod);
    expect(second.out).toBe(first.out);
    expect(second.stats).toMatchObject({ hits: 2, compiled: 0, rejected: 0, written: false });

    // V8 would take the old code for a source of the same length: the content hash must not
    fs.writeFileSync(path.join(root, 'dep.js'), 'module.exports = 50;\n');
    const changed = runWithCache(root, dir, mod);
    expect(changed.out).toBe(`answer 51 ${path.join(root, 'dep.js')}`);
    expect(changed.stats).toMatchObject({ hits: 1, compiled: 1, written: true });
  });

  it('leave the blob when their file is gone', () => {
    const dir = path.join(root, 'cache');
    const mod = path.join(root, 'mod.js');
    const gone = path.join(root, 'gone.js');
    fs.writeFileSync(gone, 'module.exports = 1;\n');
    fs.writeFileSync(mod, "console.log('n ' + require('./gone.js'));\n");
    const first = runWithCache(root, dir, mod);
    expect([...cache.decodeBlob(fs.readFileSync(first.stats.blob!)).keys()].sort()).toEqual([gone, mod].sort());

    fs.rmSync(gone);
    fs.writeFileSync(mod, "console.log('n ' + 2);\n"); // a changed module makes the run write the blob again
    const second = runWithCache(root, dir, mod);
    expect(second.out).toBe('n 2');
    expect(second.stats.written).toBe(true);
    expect([...cache.decodeBlob(fs.readFileSync(second.stats.blob!)).keys()]).toEqual([mod]);
  });

  it('keep dynamic import() working on a warm run', () => {
    const dir = path.join(root, 'cache');
    fs.writeFileSync(path.join(root, 'm.mjs'), 'export default 8;\n');
    const mod = path.join(root, 'dyn.js');
    fs.writeFileSync(mod, "import('./m.mjs').then((m) => console.log('dynamic ' + m.default));\n");
    expect(runWithCache(root, dir, mod).out).toBe('dynamic 8');
    expect(runWithCache(root, dir, mod).out).toBe('dynamic 8');
  });

  it('compile as Node would when the blob is garbage or the module is ESM', () => {
    const dir = path.join(root, 'cache');
    fs.mkdirSync(path.join(root, 'esm'));
    fs.writeFileSync(path.join(root, 'esm', 'package.json'), '{"type":"module"}');
    fs.writeFileSync(path.join(root, 'esm', 'm.js'), 'export default 7;\n');
    const mod = path.join(root, 'mod.js');
    fs.writeFileSync(mod, "console.log('esm ' + require('./esm/m.js').default);\n");
    const first = runWithCache(root, dir, mod);
    expect(first.out).toBe('esm 7');

    fs.writeFileSync(first.stats.blob!, 'not a blob at all');
    const again = runWithCache(root, dir, mod);
    expect(again.out).toBe('esm 7');
    expect(again.stats).toMatchObject({ hits: 0, compiled: 1, written: true });
    expect(cache.decodeBlob(fs.readFileSync(again.stats.blob!)).has(mod)).toBe(true);
  });
});

describe('the built CLI with its code and resolution caches', () => {
  it('prints the same as without them, and compiles and resolves nothing afresh on a second run', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-cli-cache-'));
    try {
      const env = { LOUPE_COMPILE_CACHE: dir, LOUPE_DEBUG_COMPILE_CACHE: '1' };
      const statsOf = (stderr: string) => JSON.parse(/loupe compile cache: (.*)/.exec(stderr)![1]) as Stats;
      const plain = await runCli(['profiles', '--json'], { LOUPE_COMPILE_CACHE: '0' });
      const cold = await runCli(['profiles', '--json'], env);
      const warm = await runCli(['profiles', '--json'], env);
      expect([plain.code, cold.code, warm.code]).toEqual([0, 0, 0]);
      expect(statsOf(cold.stderr)).toMatchObject({ hits: 0, written: true });
      expect(statsOf(cold.stderr).compiled).toBeGreaterThan(100);
      expect(statsOf(warm.stderr)).toMatchObject({ compiled: 0, rejected: 0, written: false });
      expect(statsOf(warm.stderr).hits).toBe(statsOf(cold.stderr).compiled);
      // the resolution cache (resolve-cache.js), kept in the same directory
      const resolvesOf = (stderr: string) =>
        JSON.parse(/loupe resolve cache: (.*)/.exec(stderr)![1]) as { hits: number; misses: number; stale: number; written: boolean };
      expect(resolvesOf(cold.stderr)).toMatchObject({ written: true });
      expect(resolvesOf(cold.stderr).misses).toBeGreaterThan(100);
      expect(resolvesOf(warm.stderr)).toMatchObject({ misses: 0, stale: 0, written: false });
      expect(resolvesOf(warm.stderr).hits).toBe(resolvesOf(cold.stderr).misses + resolvesOf(cold.stderr).hits);
      expect(warm.stdout).toBe(plain.stdout);
      expect(JSON.parse(warm.stdout)).toBeTruthy();
      // a run under other V8 flags keeps a blob of its own: it no longer rejects and rewrites this one
      const gcCold = await runCli(['profiles', '--json'], { ...env, NODE_OPTIONS: '--expose-gc' });
      const afterGc = await runCli(['profiles', '--json'], env);
      expect([gcCold.code, afterGc.code]).toEqual([0, 0]);
      expect(statsOf(gcCold.stderr).blob).not.toBe(statsOf(warm.stderr).blob);
      expect(statsOf(gcCold.stderr)).toMatchObject({ hits: 0, rejected: 0, written: true });
      expect(statsOf(afterGc.stderr)).toMatchObject({ compiled: 0, rejected: 0, written: false });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
