// jest's node environment, plus a census of what test files leave open in their worker. When jest
// has to kill a worker for a handle left open, it cannot say which file left it; run-jest.js then
// prints this census. After each file, every open handle (server, socket, child process, …) not
// seen before is put down to that file, as is every timer a file set that is still pending (and
// referenced), and the worker's state is written to
// LOUPE_JEST_CENSUS_DIR/<pid>.json: the files it ran last, its handles with the file each appeared
// after, and how many of each resource (timers included, which have no handle object) are open
// beyond what the worker itself had before its first file.
// Without LOUPE_JEST_CENSUS_DIR (a plain `npx jest`) it is jest's node environment and nothing more.
const fs = require('node:fs');
const path = require('node:path');
const { promisify } = require('node:util');
const { TestEnvironment } = require('jest-environment-node');

/** handle → the test file after which it was first seen open (this worker's files, one after another) */
const firstSeenAfter = new WeakMap();
const lastFiles = [];
// what the worker has open before any test file (its IPC channel, stdio): not the files'
const baseline = new WeakSet(process._getActiveHandles());
const baselineResources = countResources();

/** timers the test files set (through their global setTimeout/setInterval) → the file; pruned as they end */
const timers = new Map();

/** The environment's setTimeout and setInterval, noting each timer with the file that set it. */
function trackTimers(global, file) {
  for (const name of ['setTimeout', 'setInterval']) {
    const original = global[name];
    const tracked = function (...args) {
      const timer = original.apply(this, args);
      if (timer && typeof timer === 'object') {
        // ended timers go as the map grows, not only after the file: a busy file sets many thousands
        if (timers.size >= sweepAt) sweepEnded();
        timers.set(timer, file);
      }
      return timer;
    };
    // util.promisify(setTimeout) reads it
    if (original[promisify.custom]) tracked[promisify.custom] = original[promisify.custom];
    global[name] = tracked;
  }
}

/** the map's size at which ended timers are swept out (twice what stays, so a sweep is amortised) */
let sweepAt = 10_000;

function sweepEnded() {
  for (const timer of timers.keys()) if (timer._destroyed) timers.delete(timer);
  sweepAt = Math.max(10_000, 2 * timers.size);
}

/** Timers still pending that keep the worker alive (referenced), with the file that set each. */
function pendingTimers() {
  sweepEnded();
  const out = [];
  for (const [timer, file] of timers) {
    if (timer.hasRef()) out.push({ what: `${timer._repeat ? 'setInterval' : 'setTimeout'} of ${timer._idleTimeout} ms`, after: file });
  }
  return out;
}

function countResources() {
  const counts = {};
  for (const r of process.getActiveResourcesInfo()) counts[r] = (counts[r] ?? 0) + 1;
  return counts;
}

function describeHandle(h) {
  const type = h?.constructor?.name ?? typeof h;
  if (type === 'ChildProcess') return `ChildProcess pid ${h.pid} (${(h.spawnargs ?? []).slice(0, 3).join(' ')})`;
  if (type === 'Server' && typeof h.address === 'function') {
    const a = h.address();
    return `Server ${a && typeof a === 'object' ? `port ${a.port}` : (a ?? 'not listening')}`;
  }
  if (type === 'Socket') {
    if (h === process.stdout || h === process.stderr || h === process.stdin) return null;
    // the local port too: Postgres's pg_stat_activity.client_port names the backend (and its last query)
    return `Socket ${h.remoteAddress ? `to ${h.remoteAddress}:${h.remotePort} from port ${h.localPort}` : h.localPort ? `local ${h.localPort}` : '(pipe)'}`;
  }
  return type;
}

function writeCensus(dir, testPath) {
  lastFiles.push(path.relative(process.cwd(), testPath));
  if (lastFiles.length > 5) lastFiles.shift();
  const handles = [];
  for (const h of process._getActiveHandles()) {
    if (baseline.has(h)) continue;
    if (!firstSeenAfter.has(h)) firstSeenAfter.set(h, lastFiles[lastFiles.length - 1]);
    const what = describeHandle(h);
    if (what) handles.push({ what, after: firstSeenAfter.get(h) });
  }
  handles.push(...pendingTimers());
  // beyond the worker's own
  const resources = {};
  for (const [r, n] of Object.entries(countResources()))
    if (n > (baselineResources[r] ?? 0)) resources[r] = n - (baselineResources[r] ?? 0);
  const file = path.join(dir, `${process.pid}.json`);
  fs.writeFileSync(`${file}.tmp`, JSON.stringify({ pid: process.pid, lastFiles, handles, resources }));
  fs.renameSync(`${file}.tmp`, file);
}

class CensusEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    this.testPath = context.testPath;
    if (process.env.LOUPE_JEST_CENSUS_DIR) trackTimers(this.global, path.relative(process.cwd(), context.testPath));
  }

  async teardown() {
    await super.teardown();
    const dir = process.env.LOUPE_JEST_CENSUS_DIR;
    if (!dir) return;
    try {
      writeCensus(dir, this.testPath);
    } catch {
      // a census that cannot be written only loses the diagnosis, never the run
    }
  }
}

module.exports = CensusEnvironment;
