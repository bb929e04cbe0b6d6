// The embedded Postgres started by the CLI before the application is loaded: the server (another
// process) comes up, or is initialised on a fresh home, while this one is still loading its modules
// and reading scenarios. The database module takes the handle instead of starting one; a command that
// never opened the application leaves it again on its way out.
import {
  startEmbeddedPostgres,
  type EmbeddedPostgresHandle,
  type EmbeddedPostgresLog,
  type EmbeddedPostgresOptions,
} from './embedded-postgres';

let early: { home: string; handle: Promise<EmbeddedPostgresHandle>; taken: boolean } | undefined;
/** where the server's messages go once taken (the application's logger); until then they wait, notices aside */
let sink: EmbeddedPostgresLog | undefined;
const pending: Array<[string, 'warn' | 'notice' | undefined]> = [];

/** Starts the server now; a notice (a fresh home's initialisation) is printed at once, other messages when the application takes it. */
export function startEarly(home: string, opts: EmbeddedPostgresOptions = {}): void {
  if (early) return;
  const log: EmbeddedPostgresLog = (m, level) => {
    if (sink) sink(m, level);
    else if (level === 'notice') process.stderr.write(`loupe: ${m}\n`);
    else pending.push([m, level]);
  };
  const handle = startEmbeddedPostgres(home, log, opts);
  // a failure is reported by whoever takes the handle (the database module), with its usual message
  handle.catch(() => undefined);
  early = { home, handle, taken: false };
}

/** The early start for this home, if there is one not taken yet: the caller now owns it (and stops it). */
export function takeEarly(home: string, log: EmbeddedPostgresLog): Promise<EmbeddedPostgresHandle> | undefined {
  if (!early || early.taken || early.home !== home) return undefined;
  early.taken = true;
  sink = log;
  for (const [m, level] of pending.splice(0)) log(m, level);
  return early.handle;
}

/** Leaves the server started early if nothing took it (a usage error, a command that needed no database). */
export async function leaveEarly(): Promise<void> {
  const e = early;
  early = undefined;
  if (!e || e.taken) return;
  const pg = await e.handle.catch(() => undefined);
  await pg?.stop();
}
