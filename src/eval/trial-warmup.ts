// The first trial of a process pays for loading and compiling its tool path: the MCP SDK's client
// and server, zod's parsers, Ajv's validators of the tool schemas. Done once while the process
// waits for its database to start, the run's first trials start warm instead.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ToolsService } from '../tools/tools.service';

/** The tool call's status ('ok' when the whole path worked). */
export async function warmTrialPath(): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-warmup-'));
  try {
    const tools = await new ToolsService().createSessionTools({ workspaceDir: dir });
    try {
      return (await tools.execute('list_files', {}, { timeoutMs: 5_000 })).status;
    } finally {
      await tools.close();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
