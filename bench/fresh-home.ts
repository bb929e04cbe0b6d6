// Removing a LOUPE_HOME a bench made for a fresh-home run, with its embedded Postgres data. As root,
// a home the postgres user cannot reach (a mkdtemp directory is 0700) keeps its data in
// /var/tmp/loupe-<digest> instead, which removing the home leaves behind: a whole cluster per run.
import * as fs from 'node:fs';
import { dataDirFor } from '../src/database/embedded/embedded-postgres';
import { fallbackDataRoot, locatePostgresBinaries } from '../src/database/embedded/postgres-binaries';
import { stopServer } from '../src/database/embedded/postmaster';

/**
 * Stops the home's server if one still runs (waiting: a server shutting down still writes its data),
 * then removes the home and its data.
 */
export async function removeBenchHome(home: string): Promise<void> {
  await stopServer(
    locatePostgresBinaries(() => undefined),
    dataDirFor(home, () => undefined),
  );
  fs.rmSync(home, { recursive: true, force: true });
  fs.rmSync(fallbackDataRoot(home), { recursive: true, force: true });
}
