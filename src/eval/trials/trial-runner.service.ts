// One trial: a session on the real loop against its backend (a fresh stand-in, the real Ollama, or
// a recorded trial served by a stand-in; recorded on the way when asked), with its workspace,
// toolset, triggers and scripted approvals; then the verdict (expectations or success criteria, and
// the invariants — or a replay miss, which fails the trial loudly), the outcome the statistics use,
// and what the trial ran against (its provenance: trial-provenance.ts; its seed: trial-seed.ts).
import { Inject, Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { ApprovalService } from '../../approval/approval.service';
import { LOUPE_CONFIG } from '../../config/config.module';
import type { LoupeConfig } from '../../config/loupe-config';
import { JournalService } from '../../journal/journal.service';
import { councilToolPolicy } from '../../process/policies/council-policy';
import { ProcessManager } from '../../process/process-manager.service';
import type { SessionHandle } from '../../process/process-types';
import { buildSystemPrompt } from '../../process/system-prompt';
import { OllamaProviderFactory } from '../../provider/ollama/ollama-provider.factory';
import { McpServersService } from '../../tools/mcp-servers.service';
import { ToolsService } from '../../tools/tools.service';
import { createWorkspace, readWorkspaceFile } from '../../tools/workspace/workspace-manager';
import type { EvalRunRecorder } from '../eval-recorder';
import type { RunReplay } from '../recording/run-replay';
import { TrialRecording } from '../recording/trial-recording';
import type { TrialReplay } from '../recording/trial-replay';
import type { TrialIds, TrialReport } from '../eval-types';
import { recordedSession } from '../recorded-session-builder';
import { SessionLedger } from '../../journal/session-ledger';
import { profileOf, type Job } from '../run-plan';
import { settingsOf } from '../scenario/scenario-settings';
import { scriptApprovals } from '../scripted-approvals';
import type { TrialOutcome } from '../statistics/statistics-types';
import { prepareBackend } from '../trial-backend';
import { prepareMcpServers } from '../trial-mcp-servers';
import { collectHostEvents, watchTriggers } from '../trial-triggers';
import { trialSeed } from '../trial-seed';
import { simModelOf, type RunPersonas } from '../sim-models';
import { interruptedRow, TrialInterrupted } from './trial-interrupt';
import { judgedOutcome } from './trial-outcome';
import { provenanceFromMetadata, recordedRequestSettings, trialProvenance } from './trial-provenance';
import { filesToRead, judgedAs, judgeTrial, type TrialMode } from './trial-verdict';

export interface TrialContext {
  recorder: EvalRunRecorder;
  running: Set<SessionHandle>;
  /** how trials are judged: scripted (expectations) or live (success criteria); a replay judges as its recording did */
  mode: TrialMode;
  judge?: 'auto' | 'success';
  /** events each session recorded (the journal's count), for the run's cross-check against Postgres */
  recordedEvents?: Map<string, number>;
  loupeRevision: string;
  /** sha256 of the run's uncommitted Loupe diff (null: clean) */
  loupeDiffHash?: string | null;
  /** the run's seed, each trial's derived from it; null or unset: no seed is sent (a run recorded before seeds) */
  runSeed?: number | null;
  /** the personas of the run's simulated models (`sim:<persona>`), by model name */
  personas?: RunPersonas;
  /** the real Ollama of live trials (OLLAMA_HOST, or a worker's own); misses of a replay --allow-new go there too */
  liveHost?: string;
  /** record every model request and response */
  record?: boolean;
  /** serve each trial from a recorded run */
  replay?: RunReplay;
  /** the `loupe worker` running the trial */
  workerId?: string | null;
  /** true once the trial is no longer this process's (its worker was declared dead, or let it go): its result is not written */
  released?: () => boolean;
  /** called once the trial's setup (CPU work on this thread) is over: its session waits for a slot, or the trial ended */
  onUnderway?: () => void;
  /** the model's warm-up (a live run's first load): the session starts once it settles, the setup runs meanwhile */
  modelReady?: Promise<void>;
  /** the signal that stopped the run, once one did: the trial is then recorded interrupted, not judged (trial-interrupt.ts) */
  interrupted?: () => string | undefined;
}

export type { TrialIds } from '../eval-types';

const EMPTY_LATENCY = { slotWaitMs: 0, loadMs: 0, serverQueueMs: 0, prefillMs: 0, decodeMs: 0, firstTokenMs: null, workingMs: 0 };

@Injectable()
export class TrialRunner {
  private readonly logger = new Logger('Eval');

  constructor(
    @Inject(LOUPE_CONFIG) private readonly config: LoupeConfig,
    private readonly journal: JournalService,
    private readonly approvals: ApprovalService,
    private readonly processes: ProcessManager,
    private readonly tools: ToolsService,
    private readonly mcpServers: McpServersService,
    private readonly providers: OllamaProviderFactory,
  ) {}

  /**
   * Resolves once what the trials finished so far recorded is in Postgres: a verdict is reported only
   * then, so a process killed right after printing it loses nothing. Gives up after 5 s (the database
   * down: the entries stay queued, and are spilled at worst).
   */
  recorded(): Promise<void> {
    return this.journal.flush(5_000).catch(() => undefined);
  }

  /** Runs and records the trial; its verdict may be reported once `recorded()` resolves. */
  async run(
    job: Job,
    ctx: TrialContext,
    ids: TrialIds = {},
  ): Promise<{ report: TrialReport; outcome: TrialOutcome; interrupted?: boolean }> {
    const { scenario, model, trial, config } = job;
    const trialId = ids.trialId ?? randomUUID();
    const sessionId = ids.sessionId ?? randomUUID();
    const started = Date.now();
    // the configuration's overrides win over the scenario's own `config:` (that is what a run varies)
    const axis = settingsOf(config.overrides);
    const profile = profileOf(job);
    const loopSettings = { ...scenario.loopSettings, ...axis.loopSettings, profile };
    // a script is one path under the loop it was written for; under another profile's loop only outcomes count
    const foreign = !scenario.profiles.includes(profile);
    const seed =
      typeof ctx.runSeed === 'number' ? trialSeed(ctx.runSeed, { scenarioId: scenario.id, model, configKey: config.key, trial }) : null;
    const judgeAs = judgedAs(job, ctx.mode, ctx.judge);
    const base: TrialReport = {
      trialId,
      scenarioId: scenario.id,
      title: scenario.title,
      file: scenario.file,
      spec: scenario.spec,
      model,
      trial,
      configKey: config.key,
      profile,
      judgedBy: judgeAs,
      sessionId: null,
      traceId: null,
      status: 'error',
      terminationReason: null,
      expectations: [],
      failedExpectations: [],
      invariantViolations: [],
      iterations: 0,
      events: 0,
      durationMs: 0,
    };
    let outcome: TrialOutcome = {
      scenarioId: scenario.id,
      model,
      configKey: config.key,
      trial,
      status: 'error',
      terminationReason: null,
      pathologies: {},
      tokens: { input: 0, output: 0 },
      latency: EMPTY_LATENCY,
      iterations: 0,
      scenarioHash: scenario.hash,
      ...(seed !== null ? { seed } : {}),
    };
    ctx.recorder.trialStarted({
      id: trialId,
      scenarioId: scenario.id,
      scenarioTitle: scenario.title,
      scenarioFile: scenario.file,
      scenarioHash: scenario.hash,
      model,
      trialIndex: trial,
      configKey: config.key,
      config: config.overrides,
      mode: ctx.mode,
      attempt: ids.attempt ?? 1,
      workerId: ctx.workerId ?? null,
    });
    let report = base;
    // provenance fields at the top level (toolSchemaHash and seed are what comparisons pair and check by)
    let metadata: Record<string, unknown> = { scenarioHash: scenario.hash, loupeRevision: ctx.loupeRevision, profile, seed };
    const cleanup: Array<() => Promise<void> | void> = [];
    let sessionStarted = false;
    const recording = ctx.record
      ? new TrialRecording(this.journal, { trialId, runId: ctx.recorder.runId, trialIndex: trial, model })
      : undefined;
    let replay: TrialReplay | undefined;
    let interruptedBy: string | undefined;
    try {
      replay = await ctx.replay?.forTrial(job);
      // under another profile's loop the scripted model may be asked for more turns than its script has: it keeps repeating its last one
      const backend = await prepareBackend(scenario, this.config, this.providers, {
        whenExhausted: foreign ? 'repeat_last' : 'error',
        liveHost: ctx.liveHost,
        replay,
        record: recording?.capture,
        replayOfLive: ctx.replay?.mode === 'live',
        sim: simModelOf(job, ctx.personas),
      });
      cleanup.push(() => backend.close());
      const workspaceDir = await createWorkspace(this.config.home, sessionId, scenario.workspaceFiles);
      recording?.setContext({ workspaceDir, sessionId });
      replay?.setContext({ workspaceDir, sessionId });
      const mcp = await prepareMcpServers(scenario.mcpServers, workspaceDir, (names) => this.mcpServers.configsFor(names));
      cleanup.push(() => mcp.close());
      const council = councilToolPolicy(scenario.councilRole);
      const tools = await this.tools.createSessionTools({
        workspaceDir,
        allow: scenario.tools,
        externalMcp: mcp.configs,
        enabled: council.toolsEnabled,
        commandTimeoutMs: axis.commandTimeoutMs ?? scenario.commandTimeoutMs,
        commandSandbox: axis.commandSandbox ?? scenario.commandSandbox,
      });
      cleanup.push(() => tools.close());
      const described = await backend.provider.describe(model);
      metadata = {
        ...metadata,
        ...trialProvenance({
          scenarioHash: scenario.hash,
          toolDefinitions: tools.definitions(),
          systemPrompt: buildSystemPrompt(council, scenario.system),
          prompt: scenario.prompt,
          modelDigest: described.digest,
          ollamaVersion: described.serverVersion,
          loupeRevision: ctx.loupeRevision,
          loupeDiffHash: ctx.loupeDiffHash ?? null,
          profile,
          seed,
        }),
        model,
        backend: backend.provider.host,
        ...(recording ? { recording: { sessionId, workspace: workspaceDir } } : {}),
        ...(replay ? { replayedFrom: { runId: replay.recorded.runId, trialId: replay.recorded.trialId } } : {}),
      };
      recording?.setDigest(described.digest);
      const hostEvents = collectHostEvents(this.journal.entries$, backend.ownHosts);
      cleanup.push(() => hostEvents.stop());
      const holders = await backend.holdSlots();
      // the session as the journal records it, from its stream: judged without reading it back
      const ledger = new SessionLedger(sessionId);
      const ledgerFeed = this.journal.entries$.subscribe((e) => {
        ledger.apply(e);
        if (e.kind === 'event' && e.row.type === 'slot_wait_started' && e.row.sessionId === sessionId) ctx.onUnderway?.();
      });
      cleanup.push(() => ledgerFeed.unsubscribe());
      await ctx.modelReady;
      const stopped = ctx.interrupted?.();
      if (stopped) throw new TrialInterrupted(stopped);
      const handle = this.processes.start({
        sessionId,
        agent: 'loupe',
        model,
        prompt: scenario.prompt,
        systemPrompt: scenario.system,
        provider: backend.provider,
        tools,
        councilRole: scenario.councilRole,
        workspaceDir,
        trialId,
        permissions: scenario.permissions,
        config: loopSettings,
        seed: seed ?? undefined,
      });
      sessionStarted = true;
      ctx.running.add(handle);
      cleanup.push(() => void ctx.running.delete(handle));
      const triggers = watchTriggers(this.journal.entries$, sessionId, [
        ...(scenario.kill ? [{ trigger: scenario.kill, fire: () => handle.kill('killed by scenario') }] : []),
        ...(scenario.inject ?? []).map((i) => ({ trigger: i, fire: () => void handle.sendMessage(i.text) })),
        ...holders.map((h) => ({ trigger: h.trigger, fire: h.release })),
        ...mcp.killActions(tools),
      ]);
      cleanup.push(() => triggers.stop());
      const scripted = scriptApprovals(this.approvals, sessionId, scenario.approvals ?? []);
      cleanup.push(() => scripted.stop());
      const result = await handle.done;
      // cut short by the signal (or ended as it came): not the session's own end, nothing to judge
      const cut = ctx.interrupted?.();
      if (cut) throw new TrialInterrupted(cut);
      // judging and cleaning up wait a turn of the event loop: the session released its slot, and the
      // request of the trial that got it is written on the next tick, after every queued microtask
      await nextTurn();
      await backend.provider.idle(); // GPU detection after the release, recorded for the host
      const detail = ledger.detail();
      if (!detail) throw new Error(`session ${sessionId} was not recorded`);
      ctx.recordedEvents?.set(sessionId, ledger.eventCount);
      const files = Object.fromEntries(
        await Promise.all(filesToRead(scenario, judgeAs, profile).map(async (f) => [f, await readWorkspaceFile(workspaceDir, f)] as const)),
      );
      const recorded = recordedSession(detail, {
        finalAnswer: result.finalAnswer,
        files,
        hostEvents: hostEvents.events,
        requests: backend.requestsSeen(),
      });
      const verdict =
        replayVerdict(replay, ctx.replay?.settings.allowNew) ??
        judgeTrial(recorded, scenario, judgeAs, { realModel: ctx.mode === 'live', profile });
      metadata = { ...metadata, ...recordedRequestSettings(recorded.events) };
      report = {
        ...base,
        sessionId,
        traceId: detail.session.traceId,
        status: verdict.status,
        terminationReason: detail.session.terminationReason,
        expectations: verdict.checks,
        failedExpectations: verdict.failed,
        invariantViolations: verdict.violations,
        error: verdict.error,
        iterations: detail.session.iterations,
        events: detail.events.length,
        durationMs: Date.now() - started,
      };
      outcome = judgedOutcome(outcome, recorded, verdict);
    } catch (e) {
      interruptedBy = ctx.interrupted?.();
      if (!interruptedBy)
        this.logger.error(
          `trial ${scenario.id} [${model} #${trial}${config.key ? ` ${config.key}` : ''}] errored: ${(e as Error).stack ?? e}`,
        );
      report = { ...base, error: (e as Error).message, durationMs: Date.now() - started };
    } finally {
      ctx.onUnderway?.();
      for (const fn of cleanup.reverse()) {
        try {
          await fn();
        } catch (e) {
          this.logger.warn(`cleanup: ${(e as Error).message}`);
        }
      }
    }
    if (replay?.misses.length) {
      const where = `${scenario.id} [${model} #${trial}${config.key ? ` ${config.key}` : ''}]`;
      for (const m of replay.misses) this.logger[ctx.replay?.settings.allowNew ? 'warn' : 'error'](`replay miss in ${where}: ${m.message}`);
    }
    if (recording || replay) metadata = { ...metadata, ...replayFigures(recording, replay) };
    const provenance = provenanceFromMetadata(metadata);
    if (provenance) report = { ...report, provenance };
    if (provenance?.toolSchemaHash) outcome = { ...outcome, toolSchemaHash: provenance.toolSchemaHash };
    if (ctx.released?.()) {
      // someone else has this trial now (its worker was declared dead, or let it go): the result is not ours to write
      ctx.recorder.forget(trialId);
      return { report: { ...report, status: 'error', error: 'released' }, outcome };
    }
    if (interruptedBy) {
      const row = interruptedRow(interruptedBy, {
        sessionId: sessionStarted ? sessionId : null,
        durationMs: Date.now() - started,
        metadata,
      });
      ctx.recorder.trialFinished(trialId, row);
      return { report: { ...report, sessionId: row.sessionId, error: row.error! }, outcome, interrupted: true };
    }
    ctx.recorder.trialFinished(trialId, {
      // the session's rows precede this one in the journal, so the reference holds once written
      sessionId: sessionStarted ? sessionId : null,
      status: report.status,
      expectations: report.expectations,
      failedExpectations: report.failedExpectations,
      iterations: report.iterations,
      eventCount: report.events,
      durationMs: report.durationMs,
      error: report.error ?? null,
      metadata,
      outcome: {
        pathologies: outcome.pathologies,
        tokens: outcome.tokens,
        latency: outcome.latency,
        terminationReason: outcome.terminationReason,
      },
      invariantViolations: report.invariantViolations,
    });
    // recorded, not yet written: the caller reports the verdict once `recorded()` resolves
    return { report: { ...report, sessionId: sessionStarted ? sessionId : null }, outcome };
  }
}

/** A replay that asked for something the recording does not hold: the trial is an error naming the first difference. */
function replayVerdict(replay: TrialReplay | undefined, allowNew = false): ReturnType<typeof judgeTrial> | undefined {
  const miss = replay?.misses[0];
  if (!miss || allowNew) return undefined;
  return { status: 'error', checks: [], failed: [], violations: [], error: `replay miss: ${miss.message}` };
}

function replayFigures(recording?: TrialRecording, replay?: TrialReplay): Record<string, unknown> {
  return {
    ...(recording ? { recordedExchanges: recording.exchanges } : {}),
    ...(replay ? { replayHits: replay.hits, replayMisses: replay.misses.length } : {}),
  };
}
