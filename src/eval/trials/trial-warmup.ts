// The first trials of a process pay for loading and compiling their tool path (the MCP SDK's client
// and server, zod's parsers, Ajv's validators of the tool schemas), their session path (the loop,
// the context, the provider's requests and stream parsing) and their model path (the HTTP client,
// and Node's IPv6 address pattern, compiled on a host name's first request: ~4-6 ms). Done while the
// process waits for its database to start, the run's first trials start warm instead. Nothing of it
// is recorded: the warm-up sessions write to a sink that keeps nothing, against a stand-in of their own.
import { context } from '@opentelemetry/api';
import { suppressTracing } from '@opentelemetry/core';
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { INestApplicationContext } from '@nestjs/common';
import { NO_APPROVER } from '../../approval/approval-broker';
import type { LoupeConfig } from '../../config/loupe-config';
import { DirectProcess } from '../../process/direct-process';
import { DEFAULT_NUM_CTX } from '../../process/policies/loop-settings';
import { resolveLoopSettings } from '../../process/profiles/profiles';
import { isCloudModel } from '../../provider/ollama/model-name';
import { OllamaProvider } from '../../provider/ollama/ollama-provider';
import { EarlyProvider, OllamaProviderFactory, providerOptionsFrom } from '../../provider/ollama/ollama-provider.factory';
import type { StandinTurn } from '../../standin/standin-script';
import { StandinServer } from '../../standin/standin-server';
import { ToolsService } from '../../tools/tools.service';
import type { LiveGroup } from '../live-groups';
import { warmRunner } from '../live-schedule';
import { judgedWarmup } from '../verdict-warmup';

/**
 * While the database starts: the provider the run will use for OLLAMA_HOST, made now (the factory
 * adopts it once the application is up) and asked what the run's first trial asks before its
 * session starts: the model lists (the host's, and the local Ollama's cloud models when that is
 * another server), the server's version, the model's /api/show, and its load with the run's first
 * group's runner options (a chat with no messages; not for a cloud model). The model then loads while Postgres starts instead of after
 * (seconds for a real model); the answers are cached where the run's trials look for them, and the
 * keep-alive connections its first requests take are open. `warmed` never rejects: a failure is
 * the run's to meet and report.
 */
export function warmRunProvider(
  config: LoupeConfig,
  host: string,
  first?: string | Pick<LiveGroup, 'model' | 'options'>,
): { early: EarlyProvider; warmed: Promise<void> } {
  // a model alone runs at the configured num_ctx
  const group = typeof first === 'string' ? { model: first, options: { numCtx: config.ollama.numCtx ?? DEFAULT_NUM_CTX } } : first;
  const early = new EarlyProvider(config, host);
  const { provider } = early;
  const warmed = !group
    ? Promise.all([provider.models.serverVersion(), provider.refreshModels()]).then(() => undefined)
    : isCloudModel(group.model)
      ? provider.prefetch(group.model)
      : // with the first group's runner options, as the run's own warm-up of that group loads it
        warmRunner(provider, group.model, group.options);
  return { early, warmed: warmed.catch(() => undefined) };
}

/** The early provider becomes the run's provider for its host (see warmRunProvider). */
export function adoptRunProvider(app: INestApplicationContext, early: EarlyProvider): boolean {
  return app.get(OllamaProviderFactory).adopt(early);
}

const JUDGED_ROUNDS = 2;
const ANSWER = 'The files are listed.';
/**
 * What a warm-up session does, by round: one list_files call and then the answer, or the answer at
 * once. Both kinds: a text reply before any tool ran is checked against the nudge policy's phrase
 * patterns (after a tool they are skipped), and those regular expressions compile on their first
 * two uses (~2 ms, on a run's first replies when no round warmed them).
 */
const ROUND_KINDS: ReadonlyArray<{ model: string; turns: StandinTurn[]; toolCalls: number }> = [
  {
    model: 'loupe-warmup:1b',
    turns: [{ toolCalls: [{ name: 'list_files', arguments: { path: '.' } }] }, { content: ANSWER }],
    toolCalls: 1,
  },
  { model: 'loupe-warmup-text:1b', turns: [{ content: ANSWER }], toolCalls: 0 },
];

/**
 * `rounds` whole sessions (by turns: a tool call and an answer, or an answer at once) through the
 * real loop, provider and tools, against a stand-in of their own, a turn of the event loop apart.
 * Their records go nowhere: no journal (the first rounds' entries go to an in-memory ledger, and the
 * session is judged and summarised as a trial is), and tracing is suppressed (with an exporter too). Once `stop` is aborted
 * (the run starts) the round under way is killed and the rest are skipped. Returns each session's
 * termination reason ('completed' when the whole path worked, its verdict included); never throws.
 */
export async function warmSessionPath(config: LoupeConfig, rounds = 1, stop?: AbortSignal): Promise<string[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-warmup-'));
  const standin = new StandinServer({
    catalog: ROUND_KINDS.map((k) => ({ name: k.model, family: 'llama', parameterSize: '1.0B', capabilities: ['completion', 'tools'] })),
    script: { turns: Object.fromEntries(ROUND_KINDS.map((k) => [k.model, k.turns])), loop: true },
  });
  const reasons: string[] = [];
  try {
    const { url } = await standin.start(0);
    // the configured provider, against the warm-up's own stand-in (which is also its local Ollama)
    const provider = new OllamaProvider({ ...providerOptionsFrom(config.ollama, url), localHost: url });
    const settings = resolveLoopSettings({ maxToolIterations: 5, toolTimeoutMs: config.loop.toolTimeoutMs, numCtx: config.ollama.numCtx });
    const tools = new ToolsService();
    const discard = { append: () => undefined };
    try {
      for (let i = 0; i < rounds; i++) {
        await nextTurn();
        // the run has begun: a round now would take the thread from its first trials
        if (stop?.aborted) break;
        const kind = ROUND_KINDS[i % ROUND_KINDS.length];
        const registry = await tools.createSessionTools({ workspaceDir: dir });
        try {
          // no spans either, exporter or not: a warm-up session is nobody's trace
          const sessionId = randomUUID();
          // the first rounds are judged too (a compile is what costs; later rounds only deepen it)
          const judged = i < JUDGED_ROUNDS ? judgedWarmup(sessionId) : undefined;
          const session = context.with(
            suppressTracing(context.active()),
            () =>
              new DirectProcess(
                {
                  sessionId,
                  model: kind.model,
                  prompt: 'List the files.',
                  provider,
                  tools: registry,
                  approvals: NO_APPROVER,
                  workspaceDir: dir,
                },
                settings,
                judged ?? discard,
              ),
          );
          // the run has begun mid-round: the round ends now rather than taking the thread from its first trials
          const cut = () => session.kill('the run started');
          // aborted while this round's tools were made (after the check above): the event is gone
          if (stop?.aborted) cut();
          else stop?.addEventListener('abort', cut, { once: true });
          const { terminationReason, finalAnswer } = await session.done.finally(() => stop?.removeEventListener('abort', cut));
          const verdict =
            terminationReason === 'completed'
              ? judged?.judge(finalAnswer, { answerContains: 'listed', toolCalls: kind.toolCalls })
              : undefined;
          reasons.push(verdict && verdict !== 'passed' ? verdict : terminationReason);
        } finally {
          await registry.close();
        }
        if (reasons.at(-1) !== 'completed') break;
      }
    } finally {
      await provider.idle(); // the GPU detection after the first release, before the stand-in goes
      provider.models.dispose();
    }
  } catch (e) {
    reasons.push(`failed: ${(e as Error).message}`);
  } finally {
    await standin.stop().catch(() => undefined);
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return reasons;
}
