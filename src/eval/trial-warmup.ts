// The first trial of a process pays for loading and compiling its tool path (the MCP SDK's client
// and server, zod's parsers, Ajv's validators of the tool schemas) and its model path (the HTTP
// client, and Node's IPv6 address pattern, compiled on a host name's first request: ~4-6 ms). Done
// once while the process waits for its database to start, the run's first trials start warm instead.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { isSameOllamaHost, normalizeOllamaHost } from '../provider/ollama/host-routing';
import { createManagementClient } from '../provider/ollama/ollama-transport';
import { ToolsService } from '../tools/tools.service';

/**
 * The tool path `rounds` times, a turn of the event loop apart (the database's start goes on between
 * them). One round loads and compiles it; V8 optimises code only after it has run a number of times,
 * so the run's first trials, set up one after another, still took 2-3 times as long as later ones
 * after a single round. Returns the last tool call's status ('ok' when the whole path worked).
 */
export async function warmTrialPath(rounds = 1): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-warmup-'));
  const service = new ToolsService();
  let status = 'not run';
  try {
    for (let i = 0; i < rounds; i++) {
      if (i > 0) await nextTurn();
      const tools = await service.createSessionTools({ workspaceDir: dir });
      try {
        status = (await tools.execute('list_files', {}, { timeoutMs: 5_000 })).status;
      } finally {
        await tools.close();
      }
      if (status !== 'ok') break;
    }
    return status;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * One GET /api/version to each Ollama host a live run uses: OLLAMA_HOST, and the local Ollama its
 * model list asks for cloud models when that is another server. Their keep-alive connections are
 * then open for the first trials. Each host's version, or why it did not answer; never throws.
 */
export async function warmModelHosts(host: string, localHost: string, timeoutMs = 2_000): Promise<Record<string, string>> {
  const hosts = isSameOllamaHost(host, localHost) ? [host] : [host, localHost];
  const answers = await Promise.all(
    hosts.map((h) =>
      createManagementClient(normalizeOllamaHost(h), AbortSignal.timeout(timeoutMs))
        .version()
        .then(
          (v) => v.version,
          (e: Error) => `unreachable: ${e.message}`,
        ),
    ),
  );
  return Object.fromEntries(hosts.map((h, i) => [h, answers[i]]));
}
