// Coordination between the Loupe processes that share one embedded Postgres (npm start and an
// eval on the same LOUPE_HOME): a lock held while the server is started or stopped, and one lease
// file per process using it. The last process to leave stops the server; a process that died
// (kill -9) holds no lease, because a lease counts only while its process lives.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { processStartTime, sameProcessAlive } from '../../common/process-alive';

interface Owner {
  pid: number;
  startTime?: number;
}

const me = (): Owner => ({ pid: process.pid, startTime: processStartTime(process.pid) });

function readOwner(file: string): Owner | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as Owner;
  } catch {
    return undefined;
  }
}

export class RunDirectory {
  constructor(readonly dir: string) {
    fs.mkdirSync(path.join(dir, 'leases'), { recursive: true, mode: 0o700 });
  }

  private get lockDir(): string {
    return path.join(this.dir, 'lock');
  }

  /** Runs `fn` holding the lock (a directory: mkdir is atomic). A lock whose holder died is broken. */
  async withLock<T>(fn: () => Promise<T>, timeoutMs = 180_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      try {
        fs.mkdirSync(this.lockDir);
        fs.writeFileSync(path.join(this.lockDir, 'owner.json'), JSON.stringify(me()));
        break;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      }
      const owner = readOwner(path.join(this.lockDir, 'owner.json'));
      const age = Date.now() - (fs.statSync(this.lockDir, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (owner ? !sameProcessAlive(owner.pid, owner.startTime) : age > 5_000) {
        fs.rmSync(this.lockDir, { recursive: true, force: true });
        continue;
      }
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${this.lockDir} (held by pid ${owner?.pid ?? '?'})`);
      await new Promise((r) => setTimeout(r, 50));
    }
    try {
      return await fn();
    } finally {
      fs.rmSync(this.lockDir, { recursive: true, force: true });
    }
  }

  takeLease(): void {
    fs.writeFileSync(path.join(this.dir, 'leases', `${process.pid}.json`), JSON.stringify(me()));
  }

  dropLease(): void {
    fs.rmSync(path.join(this.dir, 'leases', `${process.pid}.json`), { force: true });
  }

  /** Pids of the live processes holding a lease; leases of dead processes are removed. */
  liveLeases(): number[] {
    const live: number[] = [];
    for (const name of fs.readdirSync(path.join(this.dir, 'leases'))) {
      const file = path.join(this.dir, 'leases', name);
      const owner = readOwner(file);
      if (owner && sameProcessAlive(owner.pid, owner.startTime)) live.push(owner.pid);
      else fs.rmSync(file, { force: true });
    }
    return live;
  }

  /** The port the server last ran on: a restarted server takes it again, so open pools reconnect. */
  get port(): number | undefined {
    const n = Number(fs.readFileSync(path.join(this.dir, 'port'), { encoding: 'utf8', flag: 'a+' }).trim());
    return Number.isInteger(n) && n > 0 ? n : undefined;
  }

  set port(port: number | undefined) {
    fs.writeFileSync(path.join(this.dir, 'port'), port ? String(port) : '');
  }
}
