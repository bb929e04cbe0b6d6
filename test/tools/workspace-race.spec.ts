// A link swap racing the file tools: another process swaps a workspace directory for a symlink to
// an outside directory and back, in a tight loop, while thousands of writes and reads go through
// the tools. None may land outside or read an outside byte; refusals are expected and counted.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createWorkspace } from '../../src/tools/workspace/workspace-manager';
import { workspaceClient } from './workspace-kit';

const CALLS = 2_000; // of each kind
const CAP_MS = 30_000; // the loop stops early rather than run past this on a slow machine
const SENTINEL = 'SENTINEL-OUTSIDE';

// swap <-> hold (the real directory) and lnk (-> outside) <-> swap, until `stop` appears; a
// directory a write made in a gap is removed so the loop can go on. Prints the number of swaps.
const SWAPPER = `
const fs = require('fs');
const [ws, outside, stop] = process.argv.slice(1);
const attempt = (fn) => { try { fn(); return true; } catch { return false; } };
const clear = (p) => attempt(() => fs.rmSync(p, { recursive: true, force: true }));
process.chdir(ws);
fs.symlinkSync(outside, 'lnk');
let swaps = 0;
const deadline = Date.now() + 120000;
for (let i = 0; ; i++) {
  if ((i & 63) === 0 && (fs.existsSync(stop) || Date.now() > deadline)) break;
  attempt(() => fs.renameSync('swap', 'hold'));
  if (!attempt(() => fs.renameSync('lnk', 'swap'))) { clear('swap'); continue; }
  if (++swaps === 1) process.stdout.write('ready\\n');
  attempt(() => fs.renameSync('swap', 'lnk'));
  if (!attempt(() => fs.renameSync('hold', 'swap'))) { clear('swap'); attempt(() => fs.renameSync('hold', 'swap')); }
}
process.stdout.write('swaps ' + swaps + '\\n');
`;

describe('file tools against a concurrent directory-for-symlink swap', () => {
  let home: string;
  beforeAll(() => (home = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-race-'))));
  afterAll(() => fs.rmSync(home, { recursive: true, force: true }));

  it('never writes or reads outside the workspace, and says so when it refuses', async () => {
    const ws = await createWorkspace(home, 'session-1', { 'swap/victim.txt': 'inside' });
    const outside = path.join(home, 'outside');
    fs.mkdirSync(outside);
    fs.writeFileSync(path.join(outside, 'victim.txt'), SENTINEL);
    const client = await workspaceClient(ws);
    const stop = path.join(home, 'stop');
    const swapper = spawn(process.execPath, ['-e', SWAPPER, ws, outside, stop], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    const ready = new Promise<void>((resolve) =>
      swapper.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('ready')) resolve();
      }),
    );
    const exited = new Promise<number | null>((resolve) => swapper.on('close', (code) => resolve(code)));
    const counts = { writesOk: 0, writesRefused: 0, readsOk: 0, readsRefused: 0, outsideBytesRead: 0 };
    const refusals = new Map<string, number>();
    const refused = (text: string) => {
      const key = text.replace(/swap\/[\w.-]+/, '<path>');
      refusals.set(key, (refusals.get(key) ?? 0) + 1);
    };
    try {
      await ready;
      const started = Date.now();
      for (let i = 0; i < CALLS && Date.now() - started < CAP_MS; i++) {
        const w = await client.call('write_file', { path: i % 2 ? `swap/new-${i % 50}.txt` : 'swap/victim.txt', content: `inside ${i}` });
        if (w.status === 'ok') counts.writesOk++;
        else {
          counts.writesRefused++;
          refused(w.text);
        }
        const r = await client.call('read_file', { path: 'swap/victim.txt' });
        if (r.text.includes(SENTINEL)) counts.outsideBytesRead++;
        if (r.status === 'ok') counts.readsOk++;
        else {
          counts.readsRefused++;
          refused(r.text);
        }
      }
    } finally {
      fs.writeFileSync(stop, '');
      expect(await exited).toBe(0);
      await client.close();
    }
    const swaps = Number(/swaps (\d+)/.exec(out)?.[1] ?? 0);
    console.log(JSON.stringify({ ...counts, swaps, refusals: Object.fromEntries(refusals) }, null, 1));
    // the attack ran, and was seen: some calls met the link
    expect(swaps).toBeGreaterThan(100);
    expect(counts.writesRefused + counts.readsRefused).toBeGreaterThan(0);
    // nothing escaped
    expect(counts.outsideBytesRead).toBe(0);
    expect(fs.readdirSync(outside)).toEqual(['victim.txt']);
    expect(fs.readFileSync(path.join(outside, 'victim.txt'), 'utf8')).toBe(SENTINEL);
    expect(counts.writesOk + counts.writesRefused).toBe(counts.readsOk + counts.readsRefused);
  });
});
