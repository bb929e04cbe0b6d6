// The whole run's last globalTeardown (jest.config.js): forceExit is off, so a handle a test leaves
// open keeps jest alive after the verdict (on 2 cores jest runs in band, tests in its own process; one
// CI run hung 90 minutes that way). If the process is still up EXIT_WATCHDOG_MS after the teardown, this
// names what holds it and fails the run: a leak is a failure to fix (`npx jest --detectOpenHandles`
// shows where each handle was made), never a reason to exit quietly. The timer is unref'd, so it
// never keeps the process alive itself.
const EXIT_WATCHDOG_MS = Number(process.env.LOUPE_TEST_EXIT_WATCHDOG_MS ?? 30_000);

function describe(handle, childPipes) {
  if (childPipes.has(handle)) return undefined; // listed with its child
  const name = handle?.constructor?.name ?? typeof handle;
  if (handle?._handle && typeof handle._handle.hasRef === 'function' && !handle._handle.hasRef()) return undefined;
  if (name === 'ChildProcess') return `child process ${handle.pid}: ${(handle.spawnargs ?? []).join(' ')}`;
  if (name === 'Server') return `server listening on ${JSON.stringify(handle.address?.())}`;
  if (name === 'Socket' || name === 'TLSSocket') {
    if (handle === process.stdout || handle === process.stderr || handle === process.stdin) return undefined;
    return `socket ${handle.localAddress ?? ''}:${handle.localPort ?? ''} -> ${handle.remoteAddress ?? handle._pipeName ?? '?'}:${handle.remotePort ?? ''}`;
  }
  return name;
}

module.exports = async function exitWatchdog(globalConfig) {
  if (globalConfig.watch || globalConfig.watchAll || globalConfig.forceExit || !(EXIT_WATCHDOG_MS > 0)) return;
  setTimeout(() => {
    const active = process._getActiveHandles?.() ?? [];
    const childPipes = new Set(active.flatMap((h) => (h?.constructor?.name === 'ChildProcess' ? (h.stdio ?? []) : [])));
    const handles = active.map((h) => describe(h, childPipes)).filter(Boolean);
    process.stderr.write(
      `\njest was still running ${EXIT_WATCHDOG_MS / 1000} s after the test run ended: open handles keep it alive.\n` +
        `active resources: ${process.getActiveResourcesInfo().join(', ')}\n` +
        handles.map((h) => `  ${h}\n`).join('') +
        'Failing the run. Find where they were opened with `npx jest --detectOpenHandles <files>`.\n',
    );
    process.exit(1);
  }, EXIT_WATCHDOG_MS).unref();
};
