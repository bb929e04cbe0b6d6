// Shared by the benches: run one real session (stand-in → provider → loop → MCP tools → journal).
import { randomUUID } from 'node:crypto';
import type { INestApplicationContext } from '@nestjs/common';
import { LOUPE_CONFIG } from '../src/config/config.module';
import type { LoupeConfig } from '../src/config/loupe-config';
import { ProcessManager } from '../src/process/process-manager.service';
import type { LoopSettings, SessionResult } from '../src/process/process-types';
import { OllamaProviderFactory } from '../src/provider/ollama/ollama-provider.factory';
import type { StandinTurn } from '../src/standin/standin-script';
import { ToolsService } from '../src/tools/tools.service';
import { createWorkspace } from '../src/tools/workspace/workspace-manager';

/** N tool-call turns that never trip a loop detector (three tools, distinct arguments), then an answer. */
export function variedToolTurns(n: number, resultBytes = 0): StandinTurn[] {
  const turns: StandinTurn[] = [];
  for (let i = 0; i < n; i++) {
    const k = i % 3;
    const call =
      k === 0
        ? { name: 'list_files', arguments: { path: '.' } }
        : k === 1
          ? { name: 'read_file', arguments: { path: resultBytes ? `big${i % 7}.txt` : `missing-${i}.txt` } }
          : { name: 'write_file', arguments: { path: `out-${i}.txt`, content: `step ${i}` } };
    turns.push({ toolCalls: [call] });
  }
  turns.push({ content: 'Done.' });
  return turns;
}

export function bigFiles(resultBytes: number): Record<string, string> {
  if (!resultBytes) return {};
  const line = 'const value = computeSomething(input, options); // a line of plausible source code\n';
  const body = line.repeat(Math.ceil(resultBytes / line.length)).slice(0, resultBytes);
  return Object.fromEntries(Array.from({ length: 7 }, (_, i) => [`big${i}.txt`, body]));
}

export async function runBenchSession(
  app: INestApplicationContext,
  host: string,
  model: string,
  settings: Partial<LoopSettings>,
  files: Record<string, string> = {},
): Promise<{ result: SessionResult; ms: number; modelMs: number }> {
  const config = app.get<LoupeConfig>(LOUPE_CONFIG);
  const sessionId = randomUUID();
  const workspaceDir = await createWorkspace(config.home, sessionId, files);
  const tools = await app.get(ToolsService).createSessionTools({ workspaceDir });
  const provider = app.get(OllamaProviderFactory).forHost(host, { isolated: true, overrides: { localHost: host } });
  // model time: each inference call's own wall time, unrounded (an iteration row holds it in whole ms,
  // which biases a sum of ~1 ms calls by a good part of a millisecond each)
  let modelMs = 0;
  const complete = provider.complete.bind(provider);
  provider.complete = async (request) => {
    const reply = await complete(request);
    modelMs += reply.timings.wallMs;
    return reply;
  };
  const started = performance.now();
  try {
    const handle = app
      .get(ProcessManager)
      .start({ sessionId, model, prompt: 'Work through the files.', provider, tools, workspaceDir, config: settings });
    const result = await handle.done;
    return { result, ms: performance.now() - started, modelMs };
  } finally {
    await tools.close();
    // the GPU detection that follows the slot's release, done before the caller stops its stand-in
    await provider.idle();
  }
}
